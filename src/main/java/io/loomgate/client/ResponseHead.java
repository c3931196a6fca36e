package io.loomgate.client;

import io.loomgate.http.Headers;
import io.loomgate.http1.FieldLines;
import java.util.List;
import java.util.Optional;

/**
 * An upstream's final response head, as {@link HeadReader} checked it.
 *
 * @param status  100 to 599 (never a 1xx: interim heads are skipped)
 * @param http11  true for HTTP/1.1; false for HTTP/1.0
 * @param headers the fields as the upstream sent them, spelling and order kept: the same
 *                {@link Headers} a request's fields are read into on loomgate's server
 */
public record ResponseHead(int status, boolean http11, Headers headers) {

    /** Every value of {@code name} (any case), or none. */
    public List<String> all(String name) {
        return headers.all(name);
    }

    public Optional<String> first(String name) {
        return Optional.ofNullable(headers.first(name));
    }

    /** The comma-separated elements of every line of {@code name}, trimmed and in lower case, empty ones left out. */
    public List<String> tokens(String name) {
        return FieldLines.tokens(all(name));
    }
}
