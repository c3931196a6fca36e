package io.loomgate.upstream;

import java.time.Duration;
import java.util.Objects;

/**
 * How an upstream's calls are retried, and the budget its retries and hedges share.
 *
 * @param attempts     the most tries of one call, the first included (1: no retry)
 * @param backoff      the pause before each retry
 * @param budget       retries and hedge backups as a share of recent calls, from 0 to 1
 * @param minPerSecond retries and backups allowed each second whatever the share allows
 */
public record RetrySettings(int attempts, Duration backoff, double budget, double minPerSecond) {

    /** No retries; hedges to the upstream draw on a budget of 20% of its calls plus 10 a second, as Finagle's defaults. */
    public static final RetrySettings NONE = new RetrySettings(1, Duration.ZERO, 0.2, 10);

    public RetrySettings {
        if (attempts < 1 || attempts > 10) {
            throw new IllegalArgumentException("attempts must be from 1 to 10: " + attempts);
        }
        Objects.requireNonNull(backoff, "backoff");
        if (!(budget >= 0 && budget <= 1) || !(minPerSecond >= 0)) {
            throw new IllegalArgumentException("budget must be from 0 to 1 and minPerSecond >= 0: " + budget + ", " + minPerSecond);
        }
    }
}
