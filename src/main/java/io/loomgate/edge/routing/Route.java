package io.loomgate.edge.routing;

import io.loomgate.edge.RouteEdge;
import java.util.Objects;
import java.util.Set;

/**
 * One entry of the route table: a method, a path, and what serves it. A path may hold parameters,
 * {@code /users/{id}}; one ending in {@code /*} is a prefix: {@code /api/*} serves {@code /api/} and
 * everything below it ({@link PathPattern}).
 *
 * @param exempt    true for operator routes ({@code /health}, {@code /metrics}) that stay available
 *                  under overload and while draining
 * @param readsBody true when the handler reads the request body itself (the proxy); otherwise the
 *                  server drains and discards it
 * @param edge      what the pipeline's edge filters check for it: CORS, limits, authentication
 * @param matcher   the hosts, headers and query it matches besides its path and method
 */
public record Route(String method, String path, Handler handler, boolean exempt, boolean readsBody, RouteEdge edge,
                    RouteMatcher matcher) {

    private static final Set<String> ROUTABLE = Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    public Route {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(matcher, "matcher");
        if (!ROUTABLE.contains(method)) {
            throw new IllegalArgumentException("method must be one of " + ROUTABLE + ": " + method);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/': " + path);
        }
        try {
            PathPattern.of(path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("path " + path + " " + e.getMessage());
        }
    }

    public Route(String method, String path, Handler handler, boolean exempt, boolean readsBody, RouteEdge edge) {
        this(method, path, handler, exempt, readsBody, edge, RouteMatcher.ANY);
    }

    public Route(String method, String path, Handler handler, boolean exempt, boolean readsBody) {
        this(method, path, handler, exempt, readsBody, RouteEdge.NONE);
    }

    public Route(String method, String path, Handler handler, boolean exempt) {
        this(method, path, handler, exempt, false);
    }

    /** The same route behind {@code edge}. */
    public Route withEdge(RouteEdge edge) {
        return new Route(method, path, handler, exempt, readsBody, edge, matcher);
    }

    /** The same route, matching {@code matcher} too. */
    public Route withMatcher(RouteMatcher matcher) {
        return new Route(method, path, handler, exempt, readsBody, edge, matcher);
    }

    public static Route get(String path, Handler handler) {
        return new Route("GET", path, handler, false);
    }

    /** A GET route that is served even when the server sheds load or drains. */
    public static Route operator(String path, Handler handler) {
        return new Route("GET", path, handler, true);
    }

    /** True for a prefix route ({@code /api/*}). */
    public boolean isPrefix() {
        return path.endsWith("/*");
    }

    /** For a prefix route, the prefix every path it serves starts with ({@code /api/}). */
    public String prefix() {
        return isPrefix() ? path.substring(0, path.length() - 1) : path;
    }
}
