package io.loomgate.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prometheus's {@code histogram_quantile}, written out so tests and the load report can run it on
 * loomgate's buckets without a Prometheus: find the bucket that holds rank {@code q * count}, and
 * interpolate linearly between its lower and upper bound. The first bucket's lower bound is 0; a
 * rank in the {@code +Inf} bucket answers the highest finite bound.
 */
public final class HistogramQuantile {

    private HistogramQuantile() {
    }

    /**
     * @param cumulative {@code le} bound (seconds; {@code +Inf} as {@link Double#POSITIVE_INFINITY})
     *                   to the cumulative count at it
     * @return the estimate in seconds; NaN when there are no observations
     */
    public static double estimate(double q, TreeMap<Double, Double> cumulative) {
        List<Map.Entry<Double, Double>> buckets = new ArrayList<>(cumulative.entrySet());
        double count = buckets.getLast().getValue();
        if (count == 0) {
            return Double.NaN;
        }
        double rank = q * count;
        int b = 0;
        while (buckets.get(b).getValue() < rank) {
            b++;
        }
        if (b == buckets.size() - 1 && Double.isInfinite(buckets.get(b).getKey())) {
            return buckets.get(b - 1).getKey();
        }
        double end = buckets.get(b).getKey();
        double start = b == 0 ? 0 : buckets.get(b - 1).getKey();
        double below = b == 0 ? 0 : buckets.get(b - 1).getValue();
        double inBucket = buckets.get(b).getValue() - below;
        return start + (end - start) * (rank - below) / inBucket;
    }

    /** The cumulative buckets of {@code metric} for one label value, as {@code after - before}. */
    public static TreeMap<Double, Double> increase(PrometheusText before, PrometheusText after, String metric,
                                                   String label, String value) {
        TreeMap<Double, Double> result = new TreeMap<>();
        for (PrometheusText.Sample s : after.samples()) {
            if (s.name().equals(metric + "_bucket") && value.equals(s.labels().get(label))) {
                Map<String, String> labels = s.labels();
                double earlier = before == null ? 0 : before.value(metric + "_bucket", labels);
                String le = labels.get("le");
                result.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), s.value() - earlier);
            }
        }
        return result;
    }

    /** Cumulative buckets at {@code bounds} (seconds, ascending, then +Inf) of raw values in seconds. */
    public static TreeMap<Double, Double> of(double[] bounds, double[] values) {
        TreeMap<Double, Double> result = new TreeMap<>();
        for (double b : bounds) {
            double n = 0;
            for (double v : values) {
                if (v <= b) {
                    n++;
                }
            }
            result.put(b, n);
        }
        result.put(Double.POSITIVE_INFINITY, (double) values.length);
        return result;
    }
}
