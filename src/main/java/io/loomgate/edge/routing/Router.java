package io.loomgate.edge.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable route table. A request is matched in one order, written once (docs/route-file.md
 * says it, and {@code check} prints each route's place):
 * <ol>
 *   <li>the routes of its exact host, then those of the wildcards that cover it (the longest
 *       first), then the routes without a host: the first of these tiers with a path for it serves it;</li>
 *   <li>within a tier, the most specific path: a literal path, then patterns segment by segment
 *       from the left, a literal beating a parameter beating the rest of a prefix ({@link PathPattern});</li>
 *   <li>at that path, the routes whose header and query conditions hold, more conditions first,
 *       then the file's order; the first for the method serves it.</li>
 * </ol>
 * {@code HEAD} is served wherever {@code GET} is, {@code OPTIONS} answers with the path's
 * {@code Allow} header (unless a route takes OPTIONS itself, as the proxy does), a known method on a
 * known path that has no route gets 405, and a method no route could ever have gets 501.
 *
 * <pre>{@code
 * Router router = Router.of(List.of(Route.get("/health", health), Route.get("/users/{id}", user)));
 * router.match("HEAD", "/health");     // Found
 * router.match("GET", "/users/7");     // Found, with params {id=7}
 * router.match("POST", "/health");     // MethodNotAllowed, allow = "GET, HEAD, OPTIONS"
 * }</pre>
 */
public final class Router {

    private final Map<String, RouteTier> exact;
    private final List<Map.Entry<String, RouteTier>> wildcards;
    private final RouteTier any;
    private final List<Route> routes;

    private Router(Map<String, RouteTier> exact, List<Map.Entry<String, RouteTier>> wildcards, RouteTier any, List<Route> routes) {
        this.exact = exact;
        this.wildcards = wildcards;
        this.any = any;
        this.routes = routes;
    }

    /**
     * Builds the table.
     *
     * @throws IllegalArgumentException for two routes with the same method, path, host and conditions,
     *                                  or two patterns of the same shape (the route file reports those first)
     */
    public static Router of(List<Route> routes) {
        Map<String, RouteTier> exact = new HashMap<>();
        Map<String, RouteTier> wild = new HashMap<>();
        RouteTier any = new RouteTier();
        for (Route r : routes) {
            if (r.matcher().hosts().isEmpty()) {
                any.add(r);
            }
            for (String h : r.matcher().exactHosts()) {
                exact.computeIfAbsent(h, k -> new RouteTier()).add(r);
            }
            for (String suffix : r.matcher().wildcardSuffixes()) {
                wild.computeIfAbsent(suffix, k -> new RouteTier()).add(r);
            }
        }
        List<Map.Entry<String, RouteTier>> wildcards = new ArrayList<>(wild.entrySet());
        wildcards.sort(Comparator.comparingInt((Map.Entry<String, RouteTier> e) -> -e.getKey().length()));
        return new Router(Map.copyOf(exact), List.copyOf(wildcards), any, List.copyOf(routes));
    }

    /** {@code method} and {@code path} alone: the routes without hosts or conditions. */
    public RouteMatch match(String method, String path) {
        return match(RouteRequest.of(method, path));
    }

    public RouteMatch match(RouteRequest request) {
        if (!RouteTier.KNOWN_METHODS.contains(request.method())) {
            return new RouteMatch.NotImplemented(request.method());
        }
        if (!request.host().isEmpty()) {
            RouteTier tier = exact.get(request.host());
            if (tier != null) {
                RouteMatch m = tier.match(request);
                if (!(m instanceof RouteMatch.NotFound)) {
                    return m;
                }
            }
            for (Map.Entry<String, RouteTier> w : wildcards) {
                String suffix = w.getKey();
                if (request.host().endsWith(suffix) && request.host().length() > suffix.length()) {   // one label or more
                    RouteMatch m = w.getValue().match(request);
                    if (!(m instanceof RouteMatch.NotFound)) {
                        return m;
                    }
                }
            }
        }
        return any.match(request);
    }

    /** Every route, in the order given. */
    public List<Route> routes() {
        return routes;
    }
}
