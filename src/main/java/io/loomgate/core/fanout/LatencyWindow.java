package io.loomgate.core.fanout;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * The last {@link #SIZE} latencies of one upstream, and a percentile of them. Sorting a thousand
 * numbers on every request would cost more than the hedge saves, so the percentile is computed
 * again only after {@link #REFRESH_EVERY} new samples.
 */
final class LatencyWindow {

    static final int SIZE = 1000;
    static final int MIN_SAMPLES = 20;
    static final int REFRESH_EVERY = 50;

    private final double percentile;
    private final long[] nanos = new long[SIZE];
    private int count;
    private int next;
    private int sinceRefresh;
    private long cached = -1;

    /** @param percentile above 0 and below 100, e.g. 95 */
    LatencyWindow(double percentile) {
        this.percentile = percentile;
    }

    synchronized void record(Duration latency) {
        nanos[next] = latency.toNanos();
        next = (next + 1) % SIZE;
        count = Math.min(SIZE, count + 1);
        sinceRefresh++;
    }

    /** The percentile of the recent latencies; empty until {@link #MIN_SAMPLES} have been seen. */
    synchronized Optional<Duration> value() {
        if (count < MIN_SAMPLES) {
            return Optional.empty();
        }
        if (cached < 0 || sinceRefresh >= REFRESH_EVERY) {
            long[] sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(percentile / 100 * count) - 1;
            cached = sorted[Math.clamp(rank, 0, count - 1)];
            sinceRefresh = 0;
        }
        return Optional.of(Duration.ofNanos(cached));
    }
}
