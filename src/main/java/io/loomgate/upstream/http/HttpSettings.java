package io.loomgate.upstream.http;

import io.loomgate.config.Durations;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.json.JsonWriter;
import io.loomgate.upstream.UpstreamKind;
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
                    int maxBodyBytes, Duration idleTimeout, Optional<Path> caFile) implements UpstreamKind.Settings {

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

    @Override
    public void print(JsonWriter w) {
        w.field("url", url);
        if (!forwardQuery.isEmpty()) {
            w.name("forwardQuery").beginArray();
            forwardQuery.forEach(w::value);
            w.endArray();
        }
        if (!forwardHeaders.isEmpty()) {
            w.name("forwardHeaders").beginArray();
            forwardHeaders.forEach(w::value);
            w.endArray();
        }
        timeout.ifPresent(t -> w.field("timeout", Durations.format(t)));
        w.field("maxBodyBytes", maxBodyBytes).field("idleTimeout", Durations.format(idleTimeout));
        caFile.ifPresent(f -> w.field("caFile", f.toString()));
    }

    /** The path parameters its URL needs from every route that calls it. */
    @Override
    public List<String> pathParameters() {
        return Template.parse(url).placeholders().stream()
                .filter(p -> p.fields().isEmpty() && !p.head().equals(Bindings.QUERY) && !p.head().equals(Bindings.HEADER))
                .map(Placeholder::head).distinct().toList();
    }

    @Override
    public Optional<String> cannotForward() {
        return url.contains("?") ? Optional.of("must have a URL without a query with policy proxy (the path below the prefix"
                + " is appended to it)") : Optional.empty();
    }

    @Override
    public boolean takesCallShape() {
        return true;
    }

    @Override
    public boolean readsFiles() {
        return caFile.isPresent();
    }
}
