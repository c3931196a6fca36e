package io.loomgate.service;

import java.time.Duration;
import java.util.Objects;

/**
 * What one service call should do.
 *
 * @param service      which service
 * @param latency      slept before the work starts
 * @param forceFailure fail on purpose once the latency and the work are spent ({@code ?fail=})
 * @param n            the bound for {@code compute}; ignored by the others
 */
public record CallPlan(ServiceName service, Duration latency, boolean forceFailure, int n) {

    /** The {@code n} compute uses when the request names none. */
    public static final int DEFAULT_N = 50_000;
    public static final int MIN_N = 2;
    public static final int MAX_N = 10_000_000;

    public CallPlan {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0: " + latency);
        }
        if (n < MIN_N || n > MAX_N) {
            throw new IllegalArgumentException("n must be in " + MIN_N + ".." + MAX_N + ": " + n);
        }
    }
}
