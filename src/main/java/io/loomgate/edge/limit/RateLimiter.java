package io.loomgate.edge.limit;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A rate limit: a token bucket per key (an API key's name, a client address, a header's value),
 * holding up to {@code burst} tokens and refilled at {@code perSecond}; each request takes one.
 *
 * <p>Memory is bounded by bytes, not only by count: a key is held as its 16-byte {@link KeyDigest},
 * whatever its length, in a {@link KeyTable} of at most {@code maxKeys} keys that evicts the least
 * recently used. A new key therefore always gets a bucket of its own, full: a flood of new keys
 * evicts the flood's own older keys and never locks a newcomer out.
 *
 * <pre>{@code
 * RateLimiter limiter = new RateLimiter(new RateLimiter.Settings(50, 100, "ip"), System::nanoTime);
 * RateLimiter.Decision d = limiter.take("203.0.113.9");
 * if (!d.allowed()) { ... 429, Retry-After: d.retryAfterSeconds() ... }
 * }</pre>
 */
public final class RateLimiter implements Limit {

    /** Keys with a bucket of their own, unless a route says otherwise ({@code "maxKeys"}). */
    public static final int DEFAULT_MAX_KEYS = 100_000;
    private static final long SECOND = 1_000_000_000L;

    /**
     * @param perSecond tokens added each second
     * @param burst     the most tokens a bucket holds, and what a new key starts with
     * @param by        what the buckets are per: {@code apiKey}, {@code jwt.sub}, {@code ip}, or {@code header.NAME}
     * @param maxKeys   the most keys held at once; past it, the least recently used is evicted
     * @param shared    for a limit the fleet shares on Redis ({@code "shared": true}), what to do when
     *                  Redis does not answer; empty for a limit of this instance's own
     */
    public record Settings(double perSecond, int burst, String by, int maxKeys, Optional<OnStoreError> shared) {
        public Settings {
            Objects.requireNonNull(shared, "shared");
            if (!(perSecond > 0) || burst < 1) {
                throw new IllegalArgumentException("perSecond must be > 0 and burst >= 1: " + perSecond + ", " + burst);
            }
            Objects.requireNonNull(by, "by");
            if (maxKeys < 1) {
                throw new IllegalArgumentException("maxKeys must be >= 1: " + maxKeys);
            }
        }

        public Settings(double perSecond, int burst, String by) {
            this(perSecond, burst, by, DEFAULT_MAX_KEYS);
        }

        /** A limit this instance keeps alone. */
        public Settings(double perSecond, int burst, String by, int maxKeys) {
            this(perSecond, burst, by, maxKeys, Optional.empty());
        }

        /** What a bucket is for, in words: {@code API key}, {@code client address}, {@code X-Tenant header value}. */
        public String keyWords() {
            return KeySource.of(by).words();
        }
    }

    /** What a shared limit does when its store does not answer ({@code "onStoreError"}). */
    public enum OnStoreError {
        /** Fall back to this instance's own bucket: a lost Redis never takes the API down. */
        ALLOW,
        /** Refuse with 503. */
        DENY
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
    private final KeySource source;
    private final LongSupplier clock;
    private final KeyTable<Bucket> buckets;
    private final LongAdder refused = new LongAdder();

    public RateLimiter(Settings settings, LongSupplier nanoClock) {
        this.settings = settings;
        this.source = KeySource.of(settings.by());
        this.clock = nanoClock;
        this.buckets = new KeyTable<>(settings.maxKeys());
    }

    @Override
    public KeySource source() {
        return source;
    }

    @Override
    public Settings settings() {
        return settings;
    }

    /** Takes a token from {@code key}'s bucket, if there is one. */
    public Decision take(String key) {
        return take(KeyDigest.of(key));
    }

    /** Takes a token from the bucket of a key given as bytes (an address). */
    public Decision take(byte[] key) {
        return take(KeyDigest.of(key));
    }

    /**
     * Takes a token from {@code key}'s bucket as a gateway answers it: the {@code RateLimit-*}
     * headers of what the request met, to add to its answer, or, when the bucket was empty, a 429
     * that carries them and {@code Retry-After}.
     *
     * @throws HttpError 429 when the bucket was empty
     */
    @Override
    public Headers admit(byte[] key) {
        return answer(take(key));
    }

    /** {@link #admit(byte[])} for a key given as text (a caller's name, a header's value). */
    @Override
    public Headers admit(String key) {
        return answer(take(key));
    }

    /** {@link #admit(byte[])} for a key already digested (a shared limit falling back). */
    Headers admit(KeyDigest key) {
        return answer(take(key));
    }

    /** The {@code RateLimit-*} headers of {@code d}, or its 429. */
    Headers answer(Decision d) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("RateLimit-Limit", String.valueOf(d.limit()));
        headers.put("RateLimit-Remaining", String.valueOf(d.remaining()));
        headers.put("RateLimit-Reset", String.valueOf(d.resetSeconds()));
        if (!d.allowed()) {
            headers.put("Retry-After", String.valueOf(d.retryAfterSeconds()));
            throw new HttpError(429, "rate_limited", "more than " + perSecondWords() + " requests a second (bursts of "
                    + d.limit() + ") for this " + settings.keyWords() + "; retry after " + d.retryAfterSeconds() + " s",
                    Map.of(), headers);
        }
        return Headers.builder().addAll(headers).build();
    }

    private String perSecondWords() {
        double p = settings.perSecond();
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }

    private Decision take(KeyDigest key) {
        long now = clock.getAsLong();
        Decision d = buckets.with(key, k -> new Bucket(settings.burst(), now), b -> {
            refill(b, now);
            boolean allowed = b.tokens >= 1;
            if (allowed) {
                b.tokens -= 1;
            }
            return decision(b.tokens, allowed);
        });
        if (!d.allowed()) {
            refused.increment();
        }
        return d;
    }

    /**
     * What taking a token would meet, without taking it: a refusal when the key's bucket is empty,
     * else an allowance (also for a key with no bucket yet).
     */
    public Decision check(byte[] key) {
        long now = clock.getAsLong();
        Decision d = buckets.peek(KeyDigest.of(key), b -> {
            refill(b, now);
            return decision(b.tokens, b.tokens >= 1);
        });
        return d != null ? d : new Decision(true, settings.burst(), settings.burst(), 0, 0);
    }

    /** What a request met that left a bucket with {@code tokens} (a local one, or a shared one's in Redis). */
    Decision decision(double tokens, boolean allowed) {
        long reset = (long) Math.ceil((settings.burst() - tokens) / settings.perSecond());
        long retry = allowed ? 0 : Math.max(1, (long) Math.ceil((1 - tokens) / settings.perSecond()));
        return new Decision(allowed, settings.burst(), (int) Math.floor(tokens), reset, retry);
    }

    private void refill(Bucket b, long now) {
        double added = (now - b.updated) * settings.perSecond() / SECOND;
        b.tokens = Math.min(settings.burst(), b.tokens + added);
        b.updated = now;
    }

    /** Keys with a bucket now. */
    @Override
    public int keys() {
        return buckets.size();
    }

    /** Requests that found their bucket empty since start. */
    @Override
    public long refused() {
        return refused.sum();
    }

    /** Buckets evicted to make room for new keys since start. */
    @Override
    public long evictions() {
        return buckets.evictions();
    }
}
