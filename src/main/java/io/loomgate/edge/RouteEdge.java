package io.loomgate.edge;

import io.loomgate.edge.auth.Auth;
import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.Limit;
import io.loomgate.edge.limit.RateLimiter;
import java.util.Objects;
import java.util.Optional;

/**
 * What a route's edge filters check, built from its plan: the per-route settings of the CORS,
 * pre-auth limit, refused-credentials, authentication and rate-limit filters of the pipeline
 * (edge/pipeline). A route without edge settings has {@link #NONE}.
 *
 * @param cors     its CORS settings; empty for none (browsers then keep its answers from other origins' pages)
 * @param preAuth  its limit per client address, taken before authentication; empty for none
 * @param auth     who may call it; {@link Auth.None} checks nobody
 * @param failures the count of refused credentials per client address, shared by every route that
 *                 authenticates; empty for a route that does not, or when it is off
 * @param limit    its rate limit, by the key its settings name (this instance's, or shared on Redis); empty for none
 */
public record RouteEdge(Optional<Cors> cors, Optional<RateLimiter> preAuth, Auth auth, Optional<AuthFailures> failures,
                        Optional<Limit> limit, Optional<io.loomgate.edge.compress.Compression> compress) {

    public static final RouteEdge NONE = new RouteEdge(Optional.empty(), Optional.empty(), new Auth.None(),
            Optional.empty(), Optional.empty(), Optional.empty());

    public RouteEdge {
        Objects.requireNonNull(cors, "cors");
        Objects.requireNonNull(preAuth, "preAuth");
        Objects.requireNonNull(auth, "auth");
        failures = auth instanceof Auth.None ? Optional.empty() : failures;
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(compress, "compress");
    }
}
