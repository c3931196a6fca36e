package io.loomgate.metrics;

import java.util.Arrays;

/**
 * A copy of a {@link Histogram} at one moment, with the arithmetic the formats need: count, mean,
 * percentiles, differences between two snapshots, and cumulative counts at the octave boundaries
 * that Prometheus sees as {@code _bucket{le=...}}.
 *
 * @param counts   per-bucket counts, in bucket order (owned by this snapshot)
 * @param sumNanos total of all values
 * @param maxNanos largest value recorded (since the histogram was created)
 */
public record HistogramSnapshot(long[] counts, long sumNanos, long maxNanos) {

    /** Octave boundaries exposed to Prometheus: 50 µs, 100 µs, ... 52.4288 s. */
    static final long[] OCTAVE_BOUNDS = octaveBounds();

    public static HistogramSnapshot empty() {
        return new HistogramSnapshot(new long[Histogram.BUCKETS], 0, 0);
    }

    public long count() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    public double meanNanos() {
        long n = count();
        return n == 0 ? 0 : (double) sumNanos / n;
    }

    /**
     * The value at quantile {@code q} (0 < q <= 1), in nanoseconds: the midpoint of the bucket that
     * holds the value of rank ceil(q * count), within 1/32 of the exact value (see {@link Histogram}).
     * Zero when empty.
     */
    public double percentileNanos(double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("q must be in (0, 1]: " + q);
        }
        long n = count();
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                if (i == counts.length - 1) {
                    return maxNanos;
                }
                double mid = (Histogram.lowerBound(i) + Histogram.upperBound(i)) / 2.0;
                return Math.min(mid, maxNanos);
            }
        }
        return maxNanos;
    }

    /** What was recorded between {@code earlier} and this snapshot (max stays the overall max). */
    public HistogramSnapshot minus(HistogramSnapshot earlier) {
        long[] diff = new long[counts.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = counts[i] - earlier.counts[i];
        }
        return new HistogramSnapshot(diff, sumNanos - earlier.sumNanos, maxNanos);
    }

    /** Both snapshots together. */
    public HistogramSnapshot plus(HistogramSnapshot other) {
        long[] sum = new long[counts.length];
        for (int i = 0; i < sum.length; i++) {
            sum[i] = counts[i] + other.counts[i];
        }
        return new HistogramSnapshot(sum, sumNanos + other.sumNanos, Math.max(maxNanos, other.maxNanos));
    }

    /**
     * Values below each {@link #OCTAVE_BOUNDS} boundary, cumulative: the Prometheus {@code _bucket}
     * counts. A value exactly on a boundary counts in the bucket above it; with nanosecond timings
     * that difference from Prometheus's "less or equal" never shows.
     */
    public long[] cumulativeAtOctaves() {
        long[] result = new long[OCTAVE_BOUNDS.length];
        long running = 0;
        int bucket = 0;
        for (int b = 0; b < OCTAVE_BOUNDS.length; b++) {
            while (bucket < counts.length && Histogram.upperBound(bucket) <= OCTAVE_BOUNDS[b]) {
                running += counts[bucket++];
            }
            result[b] = running;
        }
        return result;
    }

    private static long[] octaveBounds() {
        long[] bounds = new long[21];
        for (int e = 0; e < bounds.length; e++) {
            bounds[e] = Histogram.LOWEST_NANOS << e;
        }
        return bounds;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistogramSnapshot s && Arrays.equals(counts, s.counts)
                && sumNanos == s.sumNanos && maxNanos == s.maxNanos;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts) * 31 + Long.hashCode(sumNanos);
    }

    @Override
    public String toString() {
        return "HistogramSnapshot[count=" + count() + ", sumNanos=" + sumNanos + ", maxNanos=" + maxNanos + "]";
    }
}
