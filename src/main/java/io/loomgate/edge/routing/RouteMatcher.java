package io.loomgate.edge.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a route matches besides its path and method (Envoy's virtual hosts and route matchers,
 * nginx's {@code server_name}): the hosts it serves, exact ({@code api.example.com}) or with one
 * leading wildcard label ({@code *.example.com}), case-insensitive and without the port; and
 * request headers and query parameters with an exact value, or {@code "*"} for present. A route
 * without hosts serves every host; one without conditions, every request to its path.
 *
 * @param hosts   the hosts it serves, lower-case; empty for every host
 * @param headers header name (lower-case) to the value it must have, or {@code *}
 * @param query   query parameter name to the value it must have, or {@code *}
 */
public record RouteMatcher(List<String> hosts, Map<String, String> headers, Map<String, String> query) {

    /** Every host, every request to the path. */
    public static final RouteMatcher ANY = new RouteMatcher(List.of(), Map.of(), Map.of());

    public RouteMatcher {
        hosts = hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).distinct().toList();
        for (String h : hosts) {
            if (!validHost(h)) {
                throw new IllegalArgumentException("a host is a name (or *.name), without a port: " + h);
            }
        }
        TreeMap<String, String> h = new TreeMap<>();
        headers.forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), Objects.requireNonNull(v, "value")));
        headers = java.util.Collections.unmodifiableMap(h);
        query = java.util.Collections.unmodifiableMap(new TreeMap<>(query));
    }

    /** A host name, or one leading {@code *.} before one: letters, digits, {@code -} and dots. */
    public static boolean validHost(String h) {
        String name = h.startsWith("*.") ? h.substring(2) : h;
        return !name.isEmpty() && name.length() <= 253 && !name.startsWith(".") && !name.endsWith(".") && !name.contains("..")
                && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.');
    }

    /** How many header and query conditions it has: more is more specific. */
    public int conditions() {
        return headers.size() + query.size();
    }

    /** True when {@code request}'s headers and query hold every condition. */
    public boolean holds(RouteRequest request) {
        for (Map.Entry<String, String> c : headers.entrySet()) {
            String v = request.headers().first(c.getKey());
            if (v == null || !(c.getValue().equals("*") || c.getValue().equals(v.strip()))) {
                return false;
            }
        }
        for (Map.Entry<String, String> c : query.entrySet()) {
            List<String> values = request.query().all(c.getKey());
            if (values.isEmpty() || !(c.getValue().equals("*") || values.contains(c.getValue()))) {
                return false;
            }
        }
        return true;
    }

    /** The exact hosts it names. */
    List<String> exactHosts() {
        return hosts.stream().filter(h -> !h.startsWith("*.")).toList();
    }

    /** The suffixes its wildcards name: {@code .example.com} for {@code *.example.com}. */
    List<String> wildcardSuffixes() {
        return hosts.stream().filter(h -> h.startsWith("*.")).map(h -> h.substring(1)).toList();
    }

    /** As {@code check} and {@code --print-routes} show it: {@code host=api.example.com header.X-Version=2}, or empty. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (!hosts.isEmpty()) {
            parts.add("host=" + String.join(",", hosts));
        }
        headers.forEach((k, v) -> parts.add("header." + k + "=" + v));
        query.forEach((k, v) -> parts.add("query." + k + "=" + v));
        return String.join(" ", parts);
    }

    /**
     * The host a request names: its {@code Host} without the port, lower-case, without a trailing
     * dot; empty when it sent none.
     */
    public static String hostOf(String hostHeader) {
        if (hostHeader == null) {
            return "";
        }
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close < 0 ? h : h.substring(0, close + 1);
        }
        int colon = h.indexOf(':');
        h = colon < 0 ? h : h.substring(0, colon);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
