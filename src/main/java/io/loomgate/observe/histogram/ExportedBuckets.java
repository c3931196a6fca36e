package io.loomgate.observe.histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bucket boundaries Prometheus sees ({@code _bucket{le=...}}), chosen so that
 * {@code histogram_quantile} is accurate where gateway latencies live.
 *
 * <p>{@code histogram_quantile} interpolates linearly inside the bucket that holds the quantile, so
 * its error is at most that bucket's width. From 100 ms to 2.5 s every boundary is at most 5% above
 * the one before (whole milliseconds: 100, 105, 110, 115, 120, 126, ... 2,500), so there the
 * estimate is within 5% of the true value, whatever the distribution. Below 100 ms the boundaries
 * are the usual 1, 2.5, 5, 10, 25, 50 and 75 ms; above 2.5 s, 3, 4, 5, 7.5, 10, 15, 20, 30 and
 * 60 s, where the estimate can be off by up to a bucket's width. That is 85
 * boundaries plus {@code +Inf} per histogram: the price of the accuracy, said in docs/observability.md.
 *
 * <p>The old boundaries doubled (50 µs, 100 µs, ... 52 s): a steady 300 ms latency then read as
 * 408 ms, because the whole 204.8 to 409.6 ms bucket was interpolated over.
 */
public final class ExportedBuckets {

    /** Upper bounds, in nanoseconds, ascending. */
    static final long[] BOUNDS = bounds();
    /** The {@code le} label of each bound, in seconds: {@code 0.105}. */
    public static final String[] LABELS = labels();

    private ExportedBuckets() {
    }

    /** Which bucket {@code nanos} falls in: the first whose bound is at least it; {@code BOUNDS.length} past the last. */
    static int indexOf(long nanos) {
        int i = Arrays.binarySearch(BOUNDS, nanos);
        return i >= 0 ? i : -i - 1;
    }

    private static long[] bounds() {
        List<Long> nanos = new ArrayList<>();
        nanos.add(1_000_000L);
        nanos.add(2_500_000L);
        for (long m : List.of(5L, 10L, 25L, 50L, 75L)) {
            nanos.add(m * 1_000_000);
        }
        for (long b = 100; b < 2500; b = (long) Math.floor(b * 1.05)) {
            nanos.add(b * 1_000_000);
        }
        nanos.add(2_500_000_000L);
        for (double s : new double[] {3, 4, 5, 7.5, 10, 15, 20, 30, 60}) {
            nanos.add((long) (s * 1e9));
        }
        return nanos.stream().mapToLong(Long::longValue).toArray();
    }

    private static String[] labels() {
        String[] labels = new String[BOUNDS.length];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = seconds(BOUNDS[i]);
        }
        return labels;
    }

    /**
     * {@code nanos} as seconds in the fewest decimals that show it exactly: {@code 0.105}, {@code 2.5},
     * {@code 60}. (BigDecimal printed these once; its class initialisation cost 20 to 40 ms of every start.)
     */
    static String seconds(long nanos) {
        String whole = Long.toString(nanos / 1_000_000_000);
        long fraction = nanos % 1_000_000_000;
        if (fraction == 0) {
            return whole;
        }
        String digits = Long.toString(1_000_000_000 + fraction).substring(1);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return whole + "." + digits.substring(0, end);
    }
}
