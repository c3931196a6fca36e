package io.loomgate.observe.histogram;

import java.util.Arrays;

/**
 * A copy of a {@link Histogram} at one moment, with the arithmetic the formats need: count, mean,
 * percentiles, differences between two snapshots, and cumulative counts at the boundaries that
 * Prometheus sees as {@code _bucket{le=...}} ({@link ExportedBuckets}).
 *
 * @param counts   per-bucket counts, in bucket order (owned by this snapshot)
 * @param sumNanos total of all values
 * @param maxNanos largest value recorded (since the histogram was created)
 * @param exported per-bucket counts at {@link ExportedBuckets#BOUNDS}, the last past them all
 */
public record HistogramSnapshot(long[] counts, long sumNanos, long maxNanos, long[] exported) {

    public static HistogramSnapshot empty() {
        return new HistogramSnapshot(new long[Histogram.BUCKETS], 0, 0, new long[ExportedBuckets.BOUNDS.length + 1]);
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
        return new HistogramSnapshot(combine(counts, earlier.counts, -1), sumNanos - earlier.sumNanos, maxNanos,
                combine(exported, earlier.exported, -1));
    }

    /** Both snapshots together. */
    public HistogramSnapshot plus(HistogramSnapshot other) {
        return new HistogramSnapshot(combine(counts, other.counts, 1), sumNanos + other.sumNanos,
                Math.max(maxNanos, other.maxNanos), combine(exported, other.exported, 1));
    }

    private static long[] combine(long[] a, long[] b, int sign) {
        long[] result = new long[a.length];
        for (int i = 0; i < result.length; i++) {
            result[i] = a[i] + sign * b[i];
        }
        return result;
    }

    /**
     * Values at or below each {@link ExportedBuckets#BOUNDS} boundary, cumulative: the Prometheus
     * {@code _bucket} counts, {@code le} meaning "less or equal" as Prometheus defines it.
     */
    public long[] cumulativeExported() {
        long[] result = new long[ExportedBuckets.BOUNDS.length];
        long running = 0;
        for (int b = 0; b < result.length; b++) {
            running += exported[b];
            result[b] = running;
        }
        return result;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistogramSnapshot s && Arrays.equals(counts, s.counts)
                && sumNanos == s.sumNanos && maxNanos == s.maxNanos && Arrays.equals(exported, s.exported);
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
