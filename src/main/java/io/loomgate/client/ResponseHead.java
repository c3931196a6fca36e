package io.loomgate.client;

import io.loomgate.http1.FieldLines;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An upstream's final response head, as {@link HeadReader} checked it.
 *
 * @param status  100 to 599 (never a 1xx: interim heads are skipped)
 * @param http11  true for HTTP/1.1; false for HTTP/1.0
 * @param headers field names in lower case, each with its values in the order they came
 */
public record ResponseHead(int status, boolean http11, Map<String, List<String>> headers) {

    /** Every value of {@code name} (lower case), or none. */
    public List<String> all(String name) {
        return headers.getOrDefault(name, List.of());
    }

    public Optional<String> first(String name) {
        List<String> values = all(name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** The comma-separated elements of every line of {@code name}, trimmed and in lower case, empty ones left out. */
    public List<String> tokens(String name) {
        return FieldLines.tokens(all(name));
    }
}
