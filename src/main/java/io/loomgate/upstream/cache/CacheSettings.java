package io.loomgate.upstream.cache;

import io.loomgate.config.Durations;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
        Fields c = upstream.nested(upstream.path() + ".cache", o.get());
        long max = c.optionalValue("maxBytes").isPresent() ? bytes(c, c.optionalValue("maxBytes").get()) : DEFAULT_MAX_BYTES;
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

    /** A size: a whole number of bytes, or a string such as {@code 512KB}, {@code 64MB}, {@code 1GB} (powers of 1024, as nginx counts). */
    private static long bytes(Fields c, Object v) throws RouteFileException {
        long n;
        if (v instanceof Long l) {
            n = l;
        } else if (v instanceof String s && s.strip().toUpperCase(Locale.ROOT).matches("\\d{1,12}\\s*(B|KB|MB|GB)?")) {
            String t = s.strip().toUpperCase(Locale.ROOT);
            String digits = t.replaceAll("\\D", "");
            long unit = t.endsWith("GB") ? 1L << 30 : t.endsWith("MB") ? 1L << 20 : t.endsWith("KB") ? 1L << 10 : 1;
            n = Long.parseLong(digits) * unit;
        } else {
            throw c.bad("maxBytes", "must be a size such as 64MB, 512KB or 1048576", v);
        }
        if (n < 1024 || n > 64L << 30) {
            throw c.bad("maxBytes", "must be from 1KB to 64GB", v);
        }
        return n;
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
