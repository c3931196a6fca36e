package io.loomgate.upstream.cache;

import io.loomgate.config.Durations;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An http upstream's {@code "cache"}: {@code {"maxBytes": "64MB", "defaultTtl": "0s",
 * "staleWhileRevalidate": "10s", "staleIfError": "60s", "keyBy": "caller", "storeWithSetCookie": "strip"}}.
 *
 * @param maxBytes             what its answers, fields and keys may hold at most
 * @param defaultTtl           how long an answer without explicit freshness is fresh (0: revalidated each time)
 * @param staleWhileRevalidate how long past its freshness an answer is served while one refresh runs
 * @param staleIfError         how long past its freshness an answer is served when the upstream fails
 * @param byCaller             {@code "keyBy": "caller"}: each caller has answers of its own
 * @param stripSetCookie       {@code "storeWithSetCookie": "strip"}: an answer that sets a cookie is stored
 *                             without its {@code Set-Cookie}; by default ({@code "refuse"}) it is not stored
 */
public record CacheSettings(long maxBytes, Duration defaultTtl, Duration staleWhileRevalidate, Duration staleIfError,
                            boolean byCaller, boolean stripSetCookie) {

    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;
    private static final List<String> FIELDS = List.of("maxBytes", "defaultTtl", "staleWhileRevalidate", "staleIfError", "keyBy",
            "storeWithSetCookie");

    /** The upstream's {@code "cache"}, if it has one. */
    public static Optional<CacheSettings> read(Fields upstream) throws RouteFileException {
        Optional<Map<String, Object>> o = upstream.optionalObject("cache");
        if (o.isEmpty()) {
            return Optional.empty();
        }
        Fields c = upstream.nested(upstream.at("cache"), o.get());
        long max = c.optionalSize("maxBytes", 1024, 64L << 30).orElse(DEFAULT_MAX_BYTES);
        Duration ttl = c.optionalDuration("defaultTtl", Duration.ZERO, Duration.ofDays(365)).orElse(Duration.ZERO);
        Duration swr = c.optionalDuration("staleWhileRevalidate", Duration.ZERO, Duration.ofDays(365)).orElse(Duration.ZERO);
        Duration sie = c.optionalDuration("staleIfError", Duration.ZERO, Duration.ofDays(365)).orElse(Duration.ZERO);
        Optional<String> keyBy = c.optionalString("keyBy");
        if (keyBy.isPresent() && !keyBy.get().equals("caller")) {
            throw c.bad("keyBy", "may only be \"caller\" (each caller's answers kept apart)", keyBy.get());
        }
        Optional<String> cookies = c.optionalString("storeWithSetCookie");
        if (cookies.isPresent() && !cookies.get().equals("strip") && !cookies.get().equals("refuse")) {
            throw c.bad("storeWithSetCookie", "may be \"refuse\" (the default: an answer that sets a cookie is not stored)"
                    + " or \"strip\" (stored without its Set-Cookie)", cookies.get());
        }
        c.finish("cache", FIELDS);
        return Optional.of(new CacheSettings(max, ttl, swr, sie, keyBy.isPresent(), cookies.filter("strip"::equals).isPresent()));
    }

    /** As {@code /admin/config} shows it. */
    public void print(JsonWriter w) {
        w.name("cache").beginObject().field("maxBytes", maxBytes).field("defaultTtl", Durations.format(defaultTtl))
                .field("staleWhileRevalidate", Durations.format(staleWhileRevalidate))
                .field("staleIfError", Durations.format(staleIfError));
        if (byCaller) {
            w.field("keyBy", "caller");
        }
        if (stripSetCookie) {
            w.field("storeWithSetCookie", "strip");
        }
        w.endObject();
    }
}
