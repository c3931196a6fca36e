package io.loomgate.routing;

import java.util.Objects;
import java.util.Set;

/**
 * One entry of the route table: a method, an exact path, and what serves it.
 *
 * @param exempt true for operator routes ({@code /health}, {@code /metrics}) that stay available
 *               under overload and while draining
 */
public record Route(String method, String path, Handler handler, boolean exempt) {

    private static final Set<String> ROUTABLE = Set.of("GET", "POST", "PUT", "DELETE", "PATCH");

    public Route {
        Objects.requireNonNull(handler, "handler");
        if (!ROUTABLE.contains(method)) {
            throw new IllegalArgumentException("method must be one of " + ROUTABLE + ": " + method);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with '/': " + path);
        }
    }

    public static Route get(String path, Handler handler) {
        return new Route("GET", path, handler, false);
    }

    /** A GET route that is served even when the server sheds load or drains. */
    public static Route operator(String path, Handler handler) {
        return new Route("GET", path, handler, true);
    }
}
