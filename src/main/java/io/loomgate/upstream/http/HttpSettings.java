package io.loomgate.upstream.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP upstream as its route file declares it.
 *
 * @param url            the URL called, perhaps with placeholders in its path and query; the forwarded
 *                       query parameters are added to its own
 * @param forwardQuery   the client's query parameters to pass on
 * @param forwardHeaders the client's headers to pass on (never hop-by-hop ones)
 * @param timeout        a cap on each call, below the request's own deadline
 * @param maxBodyBytes   a larger response body is a failure
 * @param idleTimeout    the longest wait for any one read or write; between two bytes of a proxied body
 * @param caFile         for an {@code https://} URL: PEM certificates to trust instead of the JDK's
 */
record HttpSettings(String url, List<String> forwardQuery, List<String> forwardHeaders, Optional<Duration> timeout,
                    int maxBodyBytes, Duration idleTimeout, Optional<Path> caFile) {

    static final int DEFAULT_MAX_BODY = 1024 * 1024;
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    HttpSettings {
        Objects.requireNonNull(url, "url");
        forwardQuery = List.copyOf(forwardQuery);
        forwardHeaders = List.copyOf(forwardHeaders);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(caFile, "caFile");
    }

    boolean https() {
        return url.startsWith("https://");
    }
}
