package io.loomgate.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decoded query parameters. Repeated keys keep every value in order ({@code ?delay=a&delay=b}).
 * At most {@link #MAX_PARAMETERS} pairs are accepted, so a request cannot make the server build an
 * unbounded map.
 */
public final class QueryParams {

    public static final int MAX_PARAMETERS = 64;
    private static final QueryParams EMPTY = new QueryParams(Map.of());

    private final Map<String, List<String>> values;

    private QueryParams(Map<String, List<String>> values) {
        this.values = values;
    }

    /** Parses a raw (still percent-encoded) query; {@code null} or empty gives no parameters. */
    public static QueryParams parse(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return EMPTY;
        }
        Map<String, List<String>> map = new LinkedHashMap<>();
        int count = 0;
        int start = 0;
        while (start <= rawQuery.length()) {
            int end = rawQuery.indexOf('&', start);
            if (end < 0) {
                end = rawQuery.length();
            }
            if (end > start) {
                if (++count > MAX_PARAMETERS) {
                    throw HttpError.badRequest("too_many_parameters",
                            "at most " + MAX_PARAMETERS + " query parameters are accepted");
                }
                String pair = rawQuery.substring(start, end);
                int eq = pair.indexOf('=');
                String name = PercentDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), true, "query");
                String value = eq < 0 ? "" : PercentDecoder.decode(pair.substring(eq + 1), true, "query");
                map.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        map.replaceAll((k, v) -> List.copyOf(v));
        return new QueryParams(Collections.unmodifiableMap(map));
    }

    /** The first value of {@code name}, if present. */
    public Optional<String> first(String name) {
        List<String> list = values.get(name);
        return list == null ? Optional.empty() : Optional.of(list.getFirst());
    }

    /** Every value of {@code name}, in order; empty when absent. */
    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    public Set<String> names() {
        return values.keySet();
    }
}
