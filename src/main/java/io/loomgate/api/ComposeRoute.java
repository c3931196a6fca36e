package io.loomgate.api;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.routing.RouteMatcher;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A composed route of the route table, ready to serve: its call graph and how it is reached.
 *
 * @param methods     the methods it serves ({@code HEAD} goes with {@code GET})
 * @param upstreams   the upstreams its calls use, for per-request knobs
 * @param timeout     its own deadline, instead of {@code --timeout}
 * @param clientKnobs whether {@code ?fail=}, {@code ?delay=} and a longer {@code ?timeout=} work
 * @param edge        what the pipeline's edge filters check for it (CORS, limits, authentication)
 * @param matcher     the hosts, headers and query it matches besides its path
 */
public record ComposeRoute(String path, CallGraph graph, List<String> methods, List<UpstreamId> upstreams,
                           Optional<Duration> timeout, boolean clientKnobs, RouteEdge edge, RouteMatcher matcher) {

    public ComposeRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(graph, "graph");
        methods = List.copyOf(methods);
        upstreams = List.copyOf(upstreams);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(matcher, "matcher");
    }

    /** True when a call carries the client's body. */
    public boolean readsBody() {
        return graph.calls().stream().anyMatch(c -> c.sendsBody());
    }
}
