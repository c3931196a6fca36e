package io.loomgate.observe.histogram;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A latency histogram with fixed log-linear buckets, recorded lock-free and without allocation.
 *
 * <p><b>Buckets.</b> Octaves start at 50 µs and double (50 µs, 100 µs, 200 µs, ... 52.4288 s); each
 * octave is split into {@value #SUB_BUCKETS} equal sub-buckets. So a bucket [lo, hi) is at most
 * 1/16 of lo wide. The buckets end at the first boundary past 60 s (62.26 s); one underflow bucket
 * holds values below 50 µs and one overflow bucket values from 62.26 s up.
 *
 * <p><b>Error bound.</b> A percentile is the midpoint of the bucket holding the value of that rank
 * (clamped to the largest value seen), so for values from 50 µs to 62 s the reported percentile is
 * within {@value #RELATIVE_ERROR_DENOMINATOR}th (3.125%) of the exact one. Below 50 µs the answer is
 * the underflow midpoint (25 µs); above, the largest value seen.
 *
 * <p>This is the shape of Micrometer's {@code FixedBoundaryHistogram} and of HdrHistogram's
 * log-linear layout: sorted bounds, an {@link AtomicLongArray} of counts, an index computed from the
 * value's leading bits instead of a search.
 */
public final class Histogram {

    static final int SUB_BUCKETS = 16;
    static final int RELATIVE_ERROR_DENOMINATOR = 2 * SUB_BUCKETS;
    /** The smallest bucketed value, 50 µs. */
    static final long LOWEST_NANOS = 50_000;
    /** Width of the first octave's sub-buckets: 50 µs / 16. */
    private static final long UNIT_NANOS = LOWEST_NANOS / SUB_BUCKETS;
    private static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    /** Lower bounds of the finite buckets; index 0 is the underflow bucket [0, 50 µs). */
    static final long[] LOWER_BOUNDS = lowerBounds();
    /** Number of buckets, underflow and overflow included. */
    static final int BUCKETS = LOWER_BOUNDS.length + 1;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    /** Counts at the boundaries Prometheus sees ({@link ExportedBuckets}), the last past all of them. */
    private final AtomicLongArray exported = new AtomicLongArray(ExportedBuckets.BOUNDS.length + 1);
    private final LongAdder sumNanos = new LongAdder();
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    /** Records one duration, in nanoseconds; negative values count as zero. */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        counts.incrementAndGet(indexOf(v));
        exported.incrementAndGet(ExportedBuckets.indexOf(v));
        sumNanos.add(v);
        maxNanos.accumulate(v);
    }

    /** A consistent-enough copy: each bucket is read once; concurrent records may land on either side. */
    public HistogramSnapshot snapshot() {
        long[] copy = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            copy[i] = counts.get(i);
        }
        long[] exportedCopy = new long[exported.length()];
        for (int i = 0; i < exportedCopy.length; i++) {
            exportedCopy[i] = exported.get(i);
        }
        return new HistogramSnapshot(copy, sumNanos.sum(), maxNanos.get(), exportedCopy);
    }

    /** The bucket of {@code nanos}: 0 for underflow, {@code BUCKETS - 1} for overflow. */
    static int indexOf(long nanos) {
        if (nanos < LOWEST_NANOS) {
            return 0;
        }
        long units = nanos / UNIT_NANOS;                      // >= 16
        int octave = 63 - Long.numberOfLeadingZeros(units) - 4;  // log2(units / 16)
        int sub = (int) (units >>> octave) - SUB_BUCKETS;     // 0..15
        int index = 1 + octave * SUB_BUCKETS + sub;
        return Math.min(index, BUCKETS - 1);
    }

    /** Lower bound of bucket {@code index}, in nanoseconds (0 for underflow). */
    static long lowerBound(int index) {
        return index == 0 ? 0 : LOWER_BOUNDS[index - 1];
    }

    /** Upper bound of bucket {@code index}, in nanoseconds ({@code Long.MAX_VALUE} for overflow). */
    static long upperBound(int index) {
        return index >= LOWER_BOUNDS.length ? Long.MAX_VALUE : LOWER_BOUNDS[index];
    }

    private static long[] lowerBounds() {
        java.util.List<Long> bounds = new java.util.ArrayList<>();
        for (int octave = 0; ; octave++) {
            for (int sub = 0; sub < SUB_BUCKETS; sub++) {
                long lower = (SUB_BUCKETS + sub) * UNIT_NANOS << octave;
                bounds.add(lower);
                if (lower > HIGHEST_TRACKABLE_NANOS) {
                    return bounds.stream().mapToLong(Long::longValue).toArray();
                }
            }
        }
    }
}
