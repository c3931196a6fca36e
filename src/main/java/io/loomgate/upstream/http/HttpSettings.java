package io.loomgate.upstream.http;

import io.loomgate.client.Origin;
import io.loomgate.config.Durations;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.json.JsonWriter;
import io.loomgate.upstream.UpstreamKind;
import io.loomgate.upstream.balance.Balance;
import io.loomgate.upstream.balance.Outliers;
import io.loomgate.upstream.balance.SlowStart;
import io.loomgate.upstream.cache.CacheSettings;
import io.loomgate.upstream.cache.CallCache;
import io.loomgate.core.port.Extensions;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
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
 * @param replicas       its endpoints when it has several ({@code "endpoints"}), and how calls spread over them
 * @param cache          its {@code "cache"}, when it has one
 * @param proxying       what a proxied request sends as its {@code Host} and forwarding headers
 */
record HttpSettings(String url, List<String> forwardQuery, List<String> forwardHeaders, Optional<Duration> timeout,
                    int maxBodyBytes, Duration idleTimeout, Optional<Path> caFile, Replicas replicas, Optional<CacheSettings> cache,
                    Proxying proxying, Origin.Protocol protocol)
        implements UpstreamKind.Settings {

    /**
     * Several endpoints: every URL (the first is {@code url}), the balance, the hash key's template
     * for {@code hash}, when an endpoint is ejected, its health checks, and how often a host name
     * among them is resolved again. {@link #ONE} for a plain {@code url}.
     */
    record Replicas(List<String> endpoints, Balance balance, Optional<String> hashKey, Outliers outliers, SlowStart slowStart,
                    Optional<HealthChecks.Settings> health, Duration resolveEvery) {
        static final Duration DEFAULT_RESOLVE_EVERY = Duration.ofSeconds(30);
        static final Replicas ONE = new Replicas(List.of(), Balance.LEAST_REQUEST, Optional.empty(), Outliers.DEFAULT,
                SlowStart.NONE, Optional.empty(), DEFAULT_RESOLVE_EVERY);

        Replicas {
            endpoints = List.copyOf(endpoints);
            Objects.requireNonNull(balance, "balance");
            Objects.requireNonNull(hashKey, "hashKey");
            Objects.requireNonNull(outliers, "outliers");
            Objects.requireNonNull(slowStart, "slowStart");
            Objects.requireNonNull(health, "health");
            Objects.requireNonNull(resolveEvery, "resolveEvery");
        }
    }

    /** Every URL it calls: its endpoints, or its one {@code url}. */
    List<String> urls() {
        return replicas.endpoints().isEmpty() ? List.of(url) : replicas.endpoints();
    }

    static final int DEFAULT_MAX_BODY = 1024 * 1024;
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    HttpSettings {
        Objects.requireNonNull(url, "url");
        forwardQuery = List.copyOf(forwardQuery);
        forwardHeaders = List.copyOf(forwardHeaders);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(caFile, "caFile");
        Objects.requireNonNull(replicas, "replicas");
        Objects.requireNonNull(cache, "cache");
    }

    boolean https() {
        return url.startsWith("https://");
    }

    @Override
    public void print(JsonWriter w) {
        if (replicas.endpoints().isEmpty()) {
            w.field("url", url);
        } else {
            w.name("endpoints").beginArray();
            replicas.endpoints().forEach(w::value);
            w.endArray();
            w.field("balance", replicas.balance().wire()).field("resolveEvery", Durations.format(replicas.resolveEvery()));
            replicas.hashKey().ifPresent(k -> w.field("hashKey", k));
            if (!replicas.slowStart().window().isZero()) {
                w.field("slowStart", Durations.format(replicas.slowStart().window()));
            }
            w.name("outliers").beginObject().field("consecutiveFailures", replicas.outliers().consecutiveFailures())
                    .field("baseEjection", Durations.format(replicas.outliers().baseEjection()))
                    .field("maxEjectedPercent", replicas.outliers().maxEjectedPercent());
            w.name("failOn").beginArray();
            replicas.outliers().failOn().stream().sorted().forEach(k -> w.value(k.wire()));
            w.endArray().endObject();
            replicas.health().ifPresent(h -> {
                w.name("health").beginObject().field("path", h.path()).field("every", Durations.format(h.every()))
                        .field("timeout", Durations.format(h.timeout())).field("unhealthyAfter", h.unhealthyAfter())
                        .field("healthyAfter", h.healthyAfter()).field("endsEjection", h.endsEjection());
                w.name("expect").beginArray();
                h.expect().stream().sorted().forEach(c -> w.value((long) c));
                w.endArray().endObject();
            });
        }
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
        w.field("maxBodyBytes", maxBodyBytes).field("idleTimeout", Durations.format(idleTimeout)).field("protocol", protocol.text());
        caFile.ifPresent(f -> w.field("caFile", f.toString()));
        cache.ifPresent(c -> c.print(w));
        proxying.print(w);
    }

    /** The path parameters its URL needs from every route that calls it. */
    @Override
    public List<String> pathParameters() {
        List<String> templates = new java.util.ArrayList<>(urls());
        replicas.hashKey().ifPresent(templates::add);
        return templates.stream().flatMap(t -> Template.parse(t).placeholders().stream())
                .filter(p -> p.fields().isEmpty() && !p.head().equals(Bindings.QUERY) && !p.head().equals(Bindings.HEADER))
                .map(Placeholder::head).distinct().toList();
    }

    @Override
    public Optional<String> cannotForward() {
        return urls().stream().anyMatch(u -> u.contains("?")) ? Optional.of("must have a URL without a query with policy proxy (the path below the prefix"
                + " is appended to it)") : Optional.empty();
    }

    @Override
    public boolean takesCallShape() {
        return true;
    }

    @Override
    public List<String> callFields() {
        return List.of("cache");
    }

    /** A composed call's {@code "cache"} ({@link CallCache}): its own, or {@code false} for none. */
    @Override
    public Extensions readCall(Fields call) throws RouteFileException {
        Optional<CallCache> own = CallCache.read(call);
        return own.isEmpty() ? Extensions.NONE : new Extensions(List.of(own.get()));
    }

    @Override
    public boolean readsFiles() {
        return caFile.isPresent();
    }
}
