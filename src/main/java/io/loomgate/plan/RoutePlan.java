package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One route as its route file declares it, checked: where it is, the methods it serves, its
 * deadline, who may call it, and its kind with that kind's settings.
 *
 * @param path        the path, e.g. {@code /aggregate}, {@code /users/{id}/overview} or {@code /api/*}
 * @param methods     the methods it serves: GET for a fan-out, those it declares for a composed route,
 *                    every method for a proxy
 * @param timeout     its own default deadline, instead of {@code --timeout}
 * @param clientKnobs whether clients may inject faults ({@code ?fail=}, {@code ?delay=}) and ask for
 *                    a deadline longer than the route's own ({@code ?timeout=}, up to {@code --max-timeout})
 * @param kind        what kind of route it is, with that kind's settings
 * @param edge        who may call it, how often, and from which web origins
 */
public record RoutePlan(String path, List<String> methods, Optional<Duration> timeout, boolean clientKnobs,
                        RouteKind kind, EdgeDecl edge) {

    public RoutePlan {
        Objects.requireNonNull(path, "path");
        methods = List.copyOf(methods);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(edge, "edge");
    }

    /** The upstreams it calls. */
    public List<UpstreamId> upstreams() {
        return kind.upstreams();
    }
}
