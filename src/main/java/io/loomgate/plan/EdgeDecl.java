package io.loomgate.plan;

import io.loomgate.edge.auth.AuthSpec;
import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.limit.RateLimiter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A route's edge as its route file declares it, checked: who may call it, how often, and from
 * which web origins.
 *
 * @param auth      the authentication it requires; empty for none
 * @param rateLimit its rate limit; empty for none
 * @param cors      its CORS settings; empty for none (browsers then keep its answers from other origins' pages)
 * @param preAuth   its limit per client address taken before authentication ({@code "preAuthLimit"}); empty for none
 * @param written   the route's {@code auth}, {@code rateLimit}, {@code preAuthLimit} and {@code cors} as the file
 *                  wrote them (its own, or the file's it inherits), for {@code --print-routes}
 */
public record EdgeDecl(Optional<AuthSpec> auth, Optional<RateLimiter.Settings> rateLimit, Optional<Cors> cors,
                       Optional<RateLimiter.Settings> preAuth, Map<String, Object> written,
                       Optional<io.loomgate.edge.compress.Compression> compress) {

    public static final EdgeDecl NONE = new EdgeDecl(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
            Map.of(), Optional.empty());

    public EdgeDecl {
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(rateLimit, "rateLimit");
        Objects.requireNonNull(cors, "cors");
        Objects.requireNonNull(preAuth, "preAuth");
        written = Collections.unmodifiableMap(new LinkedHashMap<>(written));
        Objects.requireNonNull(compress, "compress");
    }

    /** True when the route checks anything at the edge. */
    public boolean isEmpty() {
        return (auth.isEmpty() || !auth.get().checksCaller()) && rateLimit.isEmpty() && cors.isEmpty() && preAuth.isEmpty()
                && compress.isEmpty();
    }

    /** True when the route verifies a JWT, so templates may use {@code {jwt.NAME}}. */
    public boolean hasJwt() {
        return auth.isPresent() && auth.get().claims();
    }
}
