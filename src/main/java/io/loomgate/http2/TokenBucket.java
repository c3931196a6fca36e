package io.loomgate.http2;

/**
 * A rate with a burst: {@code burst} tokens at first, refilled at {@code perSecond}, one taken per
 * event; an event with no token left is one too many. Time is given, never read, so a test can
 * drive it. Not thread-safe: its connection's reader owns it.
 */
final class TokenBucket {

    private final double burst;
    private final double perSecond;
    private double tokens;
    private long refilledAt;

    TokenBucket(double burst, double perSecond, long nowNanos) {
        this.burst = burst;
        this.perSecond = perSecond;
        this.tokens = burst;
        this.refilledAt = nowNanos;
    }

    /** Takes a token at {@code nowNanos}; false when none was left. */
    boolean take(long nowNanos) {
        double seconds = (nowNanos - refilledAt) / 1e9;
        if (seconds > 0) {
            tokens = Math.min(burst, tokens + seconds * perSecond);
            refilledAt = nowNanos;
        }
        if (tokens < 1) {
            return false;
        }
        tokens--;
        return true;
    }
}
