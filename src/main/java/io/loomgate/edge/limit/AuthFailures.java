package io.loomgate.edge.limit;

import io.loomgate.http.HttpError;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Failed authentication, counted per client address across every route that authenticates: each
 * refused credential takes a token from its address's bucket, and an address with none left is
 * refused with 429 before its credentials are even looked at. A guesser of API keys, or a client
 * sending forged ES256 tokens that cost a signature check each, gets {@code burst} tries and then
 * {@code perSecond}; everyone else is untouched, since only credentials that were sent and refused
 * count (a request without any costs nothing to refuse).
 *
 * <pre>{@code
 * "authFailures": {"burst": 20, "perSecond": 0.2}     in a route file; "off" turns it off
 * }</pre>
 */
public final class AuthFailures {

    /** Twenty refused credentials at once, then one every five seconds, per client address. */
    public static final RateLimiter.Settings DEFAULT = new RateLimiter.Settings(0.2, 20, "ip");

    private final RateLimiter buckets;
    private final LongAdder failed = new LongAdder();
    private final LongAdder refused = new LongAdder();

    public AuthFailures(RateLimiter.Settings settings, LongSupplier nanoClock) {
        this.buckets = new RateLimiter(settings, nanoClock);
    }

    /** Refuses {@code address} (a {@link io.loomgate.http.ClientAddress#limitKey}) when its failures ran out. */
    public void check(byte[] address) {
        RateLimiter.Decision d = buckets.check(address);
        if (!d.allowed()) {
            refused.increment();
            throw new HttpError(429, "too_many_failed_authentications", "too many refused credentials from this"
                    + " client address; retry after " + d.retryAfterSeconds() + " s",
                    Map.of(), Map.of("Retry-After", String.valueOf(d.retryAfterSeconds())));
        }
    }

    /** Counts a refused credential against {@code address}. */
    public void failed(byte[] address) {
        failed.increment();
        buckets.take(address);
    }

    public RateLimiter.Settings settings() {
        return buckets.settings();
    }

    /** Refused credentials counted since start. */
    public long failures() {
        return failed.sum();
    }

    /** Requests refused with 429 because their address had failed too often. */
    public long refused() {
        return refused.sum();
    }

    public int keys() {
        return buckets.keys();
    }

    public long evictions() {
        return buckets.evictions();
    }
}
