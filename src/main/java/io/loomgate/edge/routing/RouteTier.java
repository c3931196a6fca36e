package io.loomgate.edge.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The routes of one host tier (one exact host, one wildcard, or every host), by path: a literal
 * path is looked up, patterns are tried from the most specific. The routes at one path are in the
 * order they are tried: more conditions first, then the file's order.
 */
final class RouteTier {

    /** Methods HTTP defines. Order is the order of {@code Allow}. */
    static final List<String> KNOWN_METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

    private static final Comparator<Route> TRIED_FIRST = Comparator.comparingInt((Route r) -> -r.matcher().conditions());

    private final Map<String, List<Route>> literals = new HashMap<>();
    private final Map<String, List<Route>> byPattern = new LinkedHashMap<>();
    private final List<PathPattern> patterns = new ArrayList<>();

    /** Adds {@code r}, after those added before it (the file's order). */
    void add(Route r) {
        PathPattern p = PathPattern.of(r.path());
        List<Route> at = (p.isLiteral() ? literals : byPattern).computeIfAbsent(r.path(), k -> new ArrayList<>());
        for (Route other : at) {
            if (other.method().equals(r.method()) && other.matcher().headers().equals(r.matcher().headers())
                    && other.matcher().query().equals(r.matcher().query())) {
                throw new IllegalArgumentException("duplicate route: " + r.method() + " " + r.path()
                        + (r.matcher().describe().isEmpty() ? "" : " " + r.matcher().describe()));
            }
        }
        at.add(r);
        at.sort(TRIED_FIRST);   // stable: the file's order among equals
        if (!p.isLiteral() && patterns.stream().noneMatch(q -> q.toString().equals(r.path()))) {
            for (PathPattern q : patterns) {
                if (q.sameShape(p)) {
                    throw new IllegalArgumentException("routes " + q + " and " + p + " match the same paths");
                }
            }
            patterns.add(p);
        }
    }

    /**
     * The route for {@code request}: the most specific path whose routes hold for it; then the first
     * of those for its method ({@code HEAD} as {@code GET}); else 405 or an {@code OPTIONS} answer
     * with the {@code Allow} of those that hold. {@link RouteMatch.NotFound} when no path has any.
     */
    RouteMatch match(RouteRequest request) {
        List<Route> exact = literals.get(request.path());
        if (exact != null) {
            RouteMatch m = pick(exact, request, Map.of(), request.path());
            if (!(m instanceof RouteMatch.NotFound)) {
                return m;
            }
        }
        String[] segments = PathPattern.split(request.path());
        List<PathPattern> found = new ArrayList<>(2);
        List<Map<String, String>> params = new ArrayList<>(2);
        for (PathPattern p : patterns) {
            Map<String, String> m = p.match(segments);
            if (m != null) {
                int at = 0;
                while (at < found.size() && found.get(at).compareSpecificity(p) <= 0) {
                    at++;
                }
                found.add(at, p);
                params.add(at, m);
            }
        }
        for (int i = 0; i < found.size(); i++) {
            RouteMatch m = pick(byPattern.get(found.get(i).toString()), request, params.get(i), found.get(i).toString());
            if (!(m instanceof RouteMatch.NotFound)) {
                return m;
            }
        }
        return new RouteMatch.NotFound();
    }

    private static RouteMatch pick(List<Route> routes, RouteRequest request, Map<String, String> params, String key) {
        String method = request.method().equals("HEAD") ? "GET" : request.method();
        Set<String> holding = new LinkedHashSet<>();
        for (Route r : routes) {
            if (!r.matcher().holds(request)) {
                continue;
            }
            if (r.method().equals(method)) {
                return new RouteMatch.Found(r, params);
            }
            holding.add(r.method());
        }
        if (holding.isEmpty()) {
            return new RouteMatch.NotFound();
        }
        String allow = allowHeader(holding);
        return method.equals("OPTIONS") ? new RouteMatch.Options(key, allow) : new RouteMatch.MethodNotAllowed(key, allow);
    }

    static String allowHeader(Set<String> routed) {
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
