package io.loomgate.plan;

import io.loomgate.edge.routing.RouteMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The router's precedence written out for {@code check}: for each host the file names (exact, then
 * wildcards, longest first), then for any other host, the routes in the order a request is
 * matched: the most specific path first (the longest literal prefix), then more conditions, then
 * the file's order. The router ({@code edge/routing/Router}) applies the same rule.
 */
final class RouteOrder {

    private RouteOrder() {
    }

    static void describe(List<RoutePlan> routes, StringBuilder sb) {
        Map<String, List<RoutePlan>> tiers = new LinkedHashMap<>();
        List<String> hosts = routes.stream().flatMap(r -> r.matcher().hosts().stream()).distinct()
                .sorted(Comparator.comparing((String h) -> h.startsWith("*.")).thenComparing(h -> -h.length())).toList();
        for (String h : hosts) {
            tiers.put(h, routes.stream().filter(r -> r.matcher().hosts().contains(h)).toList());
        }
        tiers.put("any other host", routes.stream().filter(r -> r.matcher().hosts().isEmpty()).toList());
        sb.append("  matched in this order (exact host, wildcard host, any host; then the most specific path;"
                + " then more conditions; then the file's order):\n");
        tiers.forEach((host, list) -> {
            List<RoutePlan> ordered = new ArrayList<>(list);
            ordered.sort(Comparator.comparingInt((RoutePlan r) -> -literalPrefix(r.path()))
                    .thenComparingInt(r -> -r.matcher().conditions()));
            sb.append("    ").append(host).append(":");
            for (RoutePlan r : ordered) {
                RouteMatcher m = r.matcher();
                String conditions = m.conditions() == 0 ? "" : " [" + m.describe().replaceAll("host=\\S+ ?", "").strip() + "]";
                sb.append(' ').append(r.path()).append(conditions).append(',');
            }
            sb.setLength(sb.length() - (ordered.isEmpty() ? 0 : 1));
            sb.append('\n');
        });
    }

    /** Characters before the first parameter or rest: how specific a path is (a literal path is all of it). */
    private static int literalPrefix(String path) {
        int cut = path.length();
        int brace = path.indexOf('{');
        int star = path.indexOf('*');
        if (brace >= 0) {
            cut = Math.min(cut, brace);
        }
        if (star >= 0) {
            cut = Math.min(cut, star);
        }
        return cut + (brace < 0 && star < 0 ? 10_000 : 0);
    }
}
