package io.loomgate.remote;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An upstream's response: its status and headers (names in lower case) and its body as a stream.
 * Reading the body to its end gives the connection back to the pool; closing it earlier aborts
 * the exchange and closes the connection.
 */
record Http1Response(int status, Map<String, List<String>> headers, InputStream body) implements AutoCloseable {

    Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** The announced body length, or -1. */
    long contentLength() {
        return header("content-length").map(v -> {
            try {
                return Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                return -1L;
            }
        }).orElse(-1L);
    }

    /** Lets the body take until {@code deadlineNanos} ({@link System#nanoTime()}) to read; the head's deadline otherwise. */
    void bodyDeadline(long deadlineNanos) throws IOException {
        if (body instanceof Http1Body b) {
            b.deadline(deadlineNanos);
        }
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
