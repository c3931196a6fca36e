package io.loomgate.edge.limit;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.store.redis.LuaScript;
import io.loomgate.store.redis.RedisClient;
import io.loomgate.store.redis.Reply;
import io.loomgate.store.redis.StoreException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A rate limit the fleet shares: each request's token is taken from a bucket in Redis, in one round
 * trip running {@link #TOKEN_BUCKET} (the same token bucket as {@link RateLimiter}, on Redis's
 * clock, so every instance agrees), and answered with the same {@code RateLimit-*} headers and 429.
 * A bucket's key is {@code loomgate:rl:ROUTE:KEY}, both digests (a long header value costs Redis
 * what a short one does), and it expires once it would be full again, so Redis holds only the keys
 * in use.
 *
 * <p>When Redis does not answer within {@code --redis-timeout} (or its breaker is open), the route's
 * {@code onStoreError} decides: {@code allow} takes the token from this instance's own bucket
 * instead, {@code deny} answers 503.
 */
public final class SharedLimiter implements Limit {

    /**
     * KEYS[1] the bucket; ARGV[1] tokens a second; ARGV[2] the burst. Returns {allowed (1 or 0),
     * tokens left}. Times are Redis's own, in microseconds.
     */
    static final LuaScript TOKEN_BUCKET = LuaScript.of("""
            if redis.replicate_commands then redis.replicate_commands() end
            local rate = tonumber(ARGV[1])
            local burst = tonumber(ARGV[2])
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
            local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
            local tokens = tonumber(bucket[1])
            local at = tonumber(bucket[2])
            if tokens == nil or at == nil then
              tokens = burst
              at = now
            end
            if now > at then
              tokens = math.min(burst, tokens + (now - at) * rate / 1000000)
              at = now
            end
            local allowed = 0
            if tokens >= 1 then
              tokens = tokens - 1
              allowed = 1
            end
            redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.0f', at))
            redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
            return {allowed, string.format('%.17g', tokens)}
            """);

    private final RateLimiter local;
    private final RedisClient redis;
    private final String prefix;
    private final List<String> args;
    private final LongAdder refused = new LongAdder();
    private final LongAdder fallbacks = new LongAdder();

    /**
     * @param local the same limit kept by this instance: the words of its answers, and its fallback
     * @param route the route it guards, which names its keys in Redis
     */
    public SharedLimiter(RateLimiter local, RedisClient redis, String route) {
        if (local.settings().shared().isEmpty()) {
            throw new IllegalArgumentException("a shared limit needs onStoreError");
        }
        this.local = local;
        this.redis = redis;
        this.prefix = "loomgate:rl:" + KeyDigest.of(route).hex().substring(0, 16) + ":";
        this.args = List.of(Double.toString(local.settings().perSecond()), Integer.toString(local.settings().burst()));
    }

    @Override
    public KeySource source() {
        return local.source();
    }

    @Override
    public RateLimiter.Settings settings() {
        return local.settings();
    }

    @Override
    public Headers admit(byte[] key) {
        return admit(KeyDigest.of(key));
    }

    @Override
    public Headers admit(String key) {
        return admit(KeyDigest.of(key));
    }

    private Headers admit(KeyDigest key) {
        RateLimiter.Decision d;
        try {
            d = decision(redis.eval(TOKEN_BUCKET, List.of(prefix + key.hex()), args));
        } catch (StoreException e) {
            fallbacks.increment();
            if (local.settings().shared().get() == RateLimiter.OnStoreError.DENY) {
                throw new HttpError(503, "rate_limit_unavailable", "the shared rate limit's store did not answer, and this route"
                        + " refuses rather than let requests through unlimited (onStoreError: deny)", Map.of(),
                        Map.of("Retry-After", "1"));
            }
            return local.admit(key);
        }
        if (!d.allowed()) {
            refused.increment();
        }
        return local.answer(d);
    }

    /** The script's {allowed, tokens}; anything else is Redis (or something in its place) not running it. */
    private RateLimiter.Decision decision(Reply reply) throws StoreException {
        if (reply instanceof Reply.Array(List<Reply> items) && items != null && items.size() == 2
                && items.get(0) instanceof Reply.Int(long allowed) && (allowed == 0 || allowed == 1)
                && items.get(1) instanceof Reply.Bulk b && b.bytes() != null) {
            try {
                double tokens = Double.parseDouble(b.text());
                if (tokens >= 0 && tokens <= local.settings().burst()) {
                    return local.decision(tokens, allowed == 1);
                }
            } catch (NumberFormatException e) {
                // below
            }
        }
        throw new StoreException(StoreException.Kind.MALFORMED, "the rate-limit script's reply is not {allowed, tokens}");
    }

    @Override
    public int keys() {
        return local.keys();
    }

    @Override
    public long evictions() {
        return local.evictions();
    }

    /** Refused with 429 by the shared bucket, and by the local one while it fell back. */
    @Override
    public long refused() {
        return refused.sum() + local.refused();
    }

    /** Requests that met no answer from Redis, and were let through or refused as {@code onStoreError} says. */
    public long fallbacks() {
        return fallbacks.sum();
    }
}
