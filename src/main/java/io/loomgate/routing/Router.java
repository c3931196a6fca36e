package io.loomgate.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable route table of exact paths and prefixes ({@code /api/*}); an exact path wins, then
 * the longest prefix. {@code HEAD} is served wherever {@code GET} is,
 * {@code OPTIONS} answers with the path's {@code Allow} header (unless a route takes OPTIONS itself,
 * as the proxy does), a known method on a known path
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
    private final List<String> prefixes;
    private final List<Route> routes;

    private Router(Map<String, Map<String, Route>> byPath, Map<String, String> allowByPath, List<String> prefixes,
                   List<Route> routes) {
        this.byPath = byPath;
        this.allowByPath = allowByPath;
        this.prefixes = prefixes;
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
        List<String> prefixes = byPath.keySet().stream().filter(p -> p.endsWith("/*"))
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
        return new Router(Map.copyOf(byPath), Map.copyOf(allow), prefixes, List.copyOf(routes));
    }

    public RouteMatch match(String method, String path) {
        if (!KNOWN_METHODS.contains(method)) {
            return new RouteMatch.NotImplemented(method);
        }
        String key = byPath.containsKey(path) ? path : longestPrefix(path);
        if (key == null) {
            return new RouteMatch.NotFound();
        }
        Map<String, Route> methods = byPath.get(key);
        if (method.equals("OPTIONS") && !methods.containsKey("OPTIONS")) {
            return new RouteMatch.Options(path, allowByPath.get(key));
        }
        Route route = methods.get(method.equals("HEAD") ? "GET" : method);
        return route != null
                ? new RouteMatch.Found(route)
                : new RouteMatch.MethodNotAllowed(path, allowByPath.get(key));
    }

    private String longestPrefix(String path) {
        for (String p : prefixes) {
            if (path.startsWith(p.substring(0, p.length() - 1))) {
                return p;
            }
        }
        return null;
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
