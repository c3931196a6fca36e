package io.loomgate.routing;

import java.util.Objects;
import java.util.Set;

/**
 * One entry of the route table: a method, a path, and what serves it. A path ending in {@code /*}
 * is a prefix: {@code /api/*} serves {@code /api/} and everything below it.
 *
 * @param exempt    true for operator routes ({@code /health}, {@code /metrics}) that stay available
 *                  under overload and while draining
 * @param readsBody true when the handler reads the request body itself (the proxy); otherwise the
 *                  server drains and discards it
 */
public record Route(String method, String path, Handler handler, boolean exempt, boolean readsBody) {

    private static final Set<String> ROUTABLE = Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    public Route {
        Objects.requireNonNull(handler, "handler");
        if (!ROUTABLE.contains(method)) {
            throw new IllegalArgumentException("method must be one of " + ROUTABLE + ": " + method);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/': " + path);
        }
        if (path.indexOf('*') >= 0 && (!path.endsWith("/*") || path.indexOf('*') != path.length() - 1)) {
            throw new IllegalArgumentException("a prefix path must end in /* and have no other '*': " + path);
        }
    }

    public Route(String method, String path, Handler handler, boolean exempt) {
        this(method, path, handler, exempt, false);
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
