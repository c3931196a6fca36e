package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.routing.RouteMatcher;
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
 * @param matcher     the hosts, headers and query it matches besides its path and methods
 */
public record RoutePlan(String path, List<String> methods, Optional<Duration> timeout, boolean clientKnobs,
                        RouteKind kind, EdgeDecl edge, RouteMatcher matcher) {

    public RoutePlan {
        Objects.requireNonNull(path, "path");
        methods = List.copyOf(methods);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(matcher, "matcher");
    }

    public RoutePlan(String path, List<String> methods, Optional<Duration> timeout, boolean clientKnobs, RouteKind kind,
                     EdgeDecl edge) {
        this(path, methods, timeout, clientKnobs, kind, edge, RouteMatcher.ANY);
    }

    /** The same route, matching {@code m} too. */
    public RoutePlan withMatcher(RouteMatcher m) {
        return new RoutePlan(path, methods, timeout, clientKnobs, kind, edge, m);
    }

    /** The upstreams it calls. */
    public List<UpstreamId> upstreams() {
        return kind.upstreams();
    }
}
