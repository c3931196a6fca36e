package io.loomgate.edge;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A route's rate limit: a token bucket per key (an API key's name, a client address, a header's
 * value), holding up to {@code burst} tokens and refilled at {@code perSecond}; each request takes
 * one. Memory is bounded: at most {@link #MAX_KEYS} buckets; past that, buckets that have refilled
 * to full (which are no different from a new one) are dropped, and if the table is still full, the
 * newcomers share one overflow bucket, which is stricter, never looser.
 *
 * <pre>{@code
 * RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(50, 100, "ip"), System::nanoTime);
 * RateLimiter.Decision d = limiter.take("203.0.113.9");
 * if (!d.allowed()) { ... 429, Retry-After: d.retryAfterSeconds() ... }
 * }</pre>
 */
public final class RateLimiter {

    /** The most keys with a bucket of their own. */
    public static final int MAX_KEYS = 100_000;
    private static final String OVERFLOW = "\u0000overflow";
    private static final long SECOND = 1_000_000_000L;

    /**
     * @param perSecond tokens added each second
     * @param burst     the most tokens a bucket holds, and what a new key starts with
     * @param by        what the buckets are per: {@code apiKey}, {@code ip}, or {@code header.NAME}
     */
    public record Settings(double perSecond, int burst, String by) {
        public Settings {
            if (!(perSecond > 0) || burst < 1) {
                throw new IllegalArgumentException("perSecond must be > 0 and burst >= 1: " + perSecond + ", " + burst);
            }
            Objects.requireNonNull(by, "by");
        }
    }

    /**
     * What one request met.
     *
     * @param remaining         whole tokens left after it
     * @param resetSeconds      seconds until the bucket is full again
     * @param retryAfterSeconds for a refusal, seconds until one token is there
     */
    public record Decision(boolean allowed, int limit, int remaining, long resetSeconds, long retryAfterSeconds) {
    }

    private static final class Bucket {
        double tokens;
        long updated;

        Bucket(double tokens, long updated) {
            this.tokens = tokens;
            this.updated = updated;
        }
    }

    private final Settings settings;
    private final LongSupplier clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private volatile long sweptAt;

    public RateLimiter(Settings settings, LongSupplier nanoClock) {
        this.settings = settings;
        this.clock = nanoClock;
    }

    public Settings settings() {
        return settings;
    }

    /** Takes a token from {@code key}'s bucket, if there is one. */
    public Decision take(String key) {
        long now = clock.getAsLong();
        Bucket b = buckets.get(key);
        if (b == null) {
            if (buckets.size() >= MAX_KEYS) {
                sweep(now);
            }
            b = buckets.size() >= MAX_KEYS ? buckets.computeIfAbsent(OVERFLOW, k -> new Bucket(settings.burst(), now))
                    : buckets.computeIfAbsent(key, k -> new Bucket(settings.burst(), now));
        }
        synchronized (b) {
            refill(b, now);
            boolean allowed = b.tokens >= 1;
            if (allowed) {
                b.tokens -= 1;
            }
            long reset = (long) Math.ceil((settings.burst() - b.tokens) / settings.perSecond());
            long retry = allowed ? 0 : Math.max(1, (long) Math.ceil((1 - b.tokens) / settings.perSecond()));
            return new Decision(allowed, settings.burst(), (int) Math.floor(b.tokens), reset, retry);
        }
    }

    private void refill(Bucket b, long now) {
        double added = (now - b.updated) * settings.perSecond() / SECOND;
        b.tokens = Math.min(settings.burst(), b.tokens + added);
        b.updated = now;
    }

    /** Drops the buckets that have refilled to full; at most once a second, so a flood of new keys costs one pass. */
    private void sweep(long now) {
        if (now - sweptAt < SECOND) {
            return;
        }
        sweptAt = now;
        buckets.entrySet().removeIf(e -> {
            synchronized (e.getValue()) {
                refill(e.getValue(), now);
                return e.getValue().tokens >= settings.burst() && !e.getKey().equals(OVERFLOW);
            }
        });
    }

    /** Buckets held now (for tests and metrics). */
    public int keys() {
        return buckets.size();
    }
}
