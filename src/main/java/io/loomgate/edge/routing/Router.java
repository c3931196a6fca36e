package io.loomgate.edge.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable route table of exact paths, parameterised paths ({@code /users/{id}}) and prefixes
 * ({@code /api/*}). An exact path wins; among patterns, the most specific one, segment by segment
 * from the left ({@link PathPattern}). {@code HEAD} is served wherever {@code GET} is,
 * {@code OPTIONS} answers with the path's {@code Allow} header (unless a route takes OPTIONS itself,
 * as the proxy does), a known method on a known path that has no route gets 405, and a method no
 * route could ever have gets 501.
 *
 * <pre>{@code
 * Router router = Router.of(List.of(Route.get("/health", health), Route.get("/users/{id}", user)));
 * router.match("HEAD", "/health");     // Found
 * router.match("GET", "/users/7");     // Found, with params {id=7}
 * router.match("POST", "/health");     // MethodNotAllowed, allow = "GET, HEAD, OPTIONS"
 * }</pre>
 */
public final class Router {

    /** Methods HTTP defines; anything else is 501. Order is the order of {@code Allow}. */
    private static final List<String> KNOWN_METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

    private final Map<String, Map<String, Route>> byPath;
    private final Map<String, String> allowByPath;
    private final Set<String> literals;
    private final List<PathPattern> patterns;
    private final List<Route> routes;

    private Router(Map<String, Map<String, Route>> byPath, Map<String, String> allowByPath, Set<String> literals,
                   List<PathPattern> patterns, List<Route> routes) {
        this.byPath = byPath;
        this.allowByPath = allowByPath;
        this.literals = literals;
        this.patterns = patterns;
        this.routes = routes;
    }

    /**
     * Builds the table.
     *
     * @throws IllegalArgumentException for two routes with the same method and path, or two patterns
     *                                  of the same shape (the route file reports those to the user first)
     */
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
        List<PathPattern> patterns = new ArrayList<>();
        Set<String> literals = new java.util.HashSet<>();
        for (String path : byPath.keySet()) {
            PathPattern p = PathPattern.of(path);
            if (p.isLiteral()) {
                literals.add(path);
                continue;
            }
            for (PathPattern q : patterns) {
                if (q.sameShape(p)) {
                    throw new IllegalArgumentException("routes " + q + " and " + p + " match the same paths");
                }
            }
            patterns.add(p);
        }
        return new Router(Map.copyOf(byPath), Map.copyOf(allow), Set.copyOf(literals), List.copyOf(patterns),
                List.copyOf(routes));
    }

    public RouteMatch match(String method, String path) {
        if (!KNOWN_METHODS.contains(method)) {
            return new RouteMatch.NotImplemented(method);
        }
        String key = path;
        Map<String, String> params = Map.of();
        if (!literals.contains(path)) {
            PathPattern best = null;
            String[] segments = PathPattern.split(path);
            for (PathPattern p : patterns) {
                Map<String, String> found = p.match(segments);
                if (found != null && (best == null || p.compareSpecificity(best) < 0)) {
                    best = p;
                    params = found;
                }
            }
            if (best == null) {
                return new RouteMatch.NotFound();
            }
            key = best.toString();
        }
        Map<String, Route> methods = byPath.get(key);
        if (method.equals("OPTIONS") && !methods.containsKey("OPTIONS")) {
            return new RouteMatch.Options(path, allowByPath.get(key));
        }
        Route route = methods.get(method.equals("HEAD") ? "GET" : method);
        return route != null
                ? new RouteMatch.Found(route, params)
                : new RouteMatch.MethodNotAllowed(path, allowByPath.get(key));
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
