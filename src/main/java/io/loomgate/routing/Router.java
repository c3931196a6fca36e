package io.loomgate.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable route table of exact paths. {@code HEAD} is served wherever {@code GET} is,
 * {@code OPTIONS} answers with the path's {@code Allow} header, a known method on a known path
 * that has no route gets 405, and a method no route could ever have gets 501.
 *
 * <pre>{@code
 * Router router = Router.of(List.of(Route.get("/health", health)));
 * router.match("HEAD", "/health");   // Found
 * router.match("POST", "/health");   // MethodNotAllowed, allow = "GET, HEAD, OPTIONS"
 * }</pre>
 */
public final class Router {

    /** Methods HTTP defines; anything else is 501. Order is the order of {@code Allow}. */
    private static final List<String> KNOWN_METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

    private final Map<String, Map<String, Route>> byPath;
    private final Map<String, String> allowByPath;
    private final List<Route> routes;

    private Router(Map<String, Map<String, Route>> byPath, Map<String, String> allowByPath, List<Route> routes) {
        this.byPath = byPath;
        this.allowByPath = allowByPath;
        this.routes = routes;
    }

    /** Builds the table; two routes for the same method and path are a programming error. */
    public static Router of(List<Route> routes) {
        Map<String, Map<String, Route>> byPath = new LinkedHashMap<>();
        for (Route r : routes) {
            Route previous = byPath.computeIfAbsent(r.path(), p -> new HashMap<>()).putIfAbsent(r.method(), r);
            if (previous != null) {
                throw new IllegalArgumentException("duplicate route: " + r.method() + " " + r.path());
            }
        }
        Map<String, String> allow = new HashMap<>();
        byPath.forEach((path, methods) -> allow.put(path, allowHeader(methods.keySet())));
        byPath.replaceAll((path, methods) -> Map.copyOf(methods));
        return new Router(Map.copyOf(byPath), Map.copyOf(allow), List.copyOf(routes));
    }

    public RouteMatch match(String method, String path) {
        if (!KNOWN_METHODS.contains(method)) {
            return new RouteMatch.NotImplemented(method);
        }
        Map<String, Route> methods = byPath.get(path);
        if (methods == null) {
            return new RouteMatch.NotFound();
        }
        if (method.equals("OPTIONS")) {
            return new RouteMatch.Options(path, allowByPath.get(path));
        }
        Route route = methods.get(method.equals("HEAD") ? "GET" : method);
        return route != null
                ? new RouteMatch.Found(route)
                : new RouteMatch.MethodNotAllowed(path, allowByPath.get(path));
    }

    /** Every route, in the order given. */
    public List<Route> routes() {
        return routes;
    }

    private static String allowHeader(Set<String> routed) {
        List<String> allowed = new ArrayList<>();
        for (String m : KNOWN_METHODS) {
            boolean viaGet = m.equals("HEAD") && routed.contains("GET");
            if (routed.contains(m) || viaGet || m.equals("OPTIONS")) {
                allowed.add(m);
            }
        }
        return String.join(", ", allowed);
    }
}
