package io.loomgate.api;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.core.fanout.Policy;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.routing.RouteMatcher;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A route of the route table, ready to serve: its policy and engine built, its upstreams resolved.
 *
 * @param timeout     the route's own default deadline, instead of {@code --timeout}
 * @param passthrough whether the single upstream's own HTTP status is the answer's
 * @param valueOnly   whether the answer is the single upstream's value itself, not the JSON contract
 * @param clientKnobs whether {@code ?fail=} and {@code ?delay=} work, and {@code ?timeout=} may exceed the route's own
 * @param edge        what the pipeline's edge filters check for it (CORS, limits, authentication)
 * @param methods     the methods it serves ({@code HEAD} goes with {@code GET})
 * @param matcher     the hosts, headers and query it matches besides its path
 */
public record FanOutRoute(String path, Policy policy, FanOut engine, List<UpstreamId> upstreams,
                          Optional<Duration> timeout, boolean passthrough, boolean valueOnly, boolean clientKnobs,
                          RouteEdge edge, List<String> methods, RouteMatcher matcher) {

    public FanOutRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(engine, "engine");
        upstreams = List.copyOf(upstreams);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(edge, "edge");
        methods = List.copyOf(methods);
        Objects.requireNonNull(matcher, "matcher");
    }
}
