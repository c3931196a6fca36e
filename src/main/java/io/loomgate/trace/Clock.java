package io.loomgate.trace;

import java.time.Instant;

/**
 * Unix epoch nanoseconds from {@link System#nanoTime()}: spans are timed with the monotonic clock
 * (as the rest of loomgate is) and placed on the wall clock once, from the moment the JVM read both.
 */
public final class Clock {

    private static final long EPOCH_AT_ZERO;

    static {
        Instant now = Instant.now();
        long nano = System.nanoTime();
        EPOCH_AT_ZERO = now.getEpochSecond() * 1_000_000_000L + now.getNano() - nano;
    }

    private Clock() {
    }

    /** The epoch nanoseconds of {@code nanoTime}, a {@link System#nanoTime()} value. */
    public static long epochNanos(long nanoTime) {
        return EPOCH_AT_ZERO + nanoTime;
    }
}
