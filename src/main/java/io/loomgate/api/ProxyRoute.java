package io.loomgate.api;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.routing.RouteMatcher;
import io.loomgate.core.port.ProxyRules;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A reverse-proxy route of the route table, ready to serve.
 *
 * @param path     the prefix path, e.g. {@code /api/*}
 * @param upstream the HTTP upstream it forwards to
 * @param timeout  how long the upstream has to send its answer's head
 * @param edge     what the pipeline's edge filters check for it (CORS, limits, authentication)
 * @param rules    what it does to what passes: its path rewrite, header rules, cookies, tunnels
 * @param methods  the methods it forwards ({@code HEAD} goes with {@code GET})
 * @param matcher  the hosts, headers and query it matches besides its path
 */
public record ProxyRoute(String path, UpstreamId upstream, Duration timeout, RouteEdge edge, ProxyRules rules,
                         List<String> methods, RouteMatcher matcher) {

    /** The methods a proxy route forwards; {@code HEAD} goes with {@code GET}. */
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    public ProxyRoute {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(rules, "rules");
        methods = List.copyOf(methods);
        Objects.requireNonNull(matcher, "matcher");
        if (!path.endsWith("/*")) {
            throw new IllegalArgumentException("a proxy route's path must end in /*: " + path);
        }
    }

    public ProxyRoute(String path, UpstreamId upstream, Duration timeout, RouteEdge edge) {
        this(path, upstream, timeout, edge, ProxyRules.NONE, METHODS, RouteMatcher.ANY);
    }

    /** Slashes in the prefix ({@code /api/} has 2): the raw path after that many is what is forwarded. */
    int prefixSlashes() {
        int slashes = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                slashes++;
            }
        }
        return slashes;
    }
}
