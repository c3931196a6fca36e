package io.loomgate.observe.histogram;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.HistogramQuantile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Prometheus's {@code histogram_quantile(0.99)} over the exported buckets, run on latencies recorded
 * from real loads (the /block and /aggregate loads of docs/performance.md, from {@code scripts/load --scenario
 * buckets} with {@code --access-log}): within 5% of the exact p99 of the same requests. The old
 * doubling boundaries are run on the same data, to show what the change bought.
 */
class ExportedBucketsAccuracyTest {

    @ParameterizedTest
    @ValueSource(strings = {"block-virtual-c100", "block-virtual-c1000", "aggregate-virtual-c100",
            "aggregate-virtual-c1000", "block-platform-c1000"})
    void theEstimateIsWithinFivePercentOfTheExactP99(String load) throws IOException {
        long[] nanos = recorded(load);
        Histogram h = new Histogram();
        for (long v : nanos) {
            h.record(v);
        }
        long[] cumulative = h.snapshot().cumulativeExported();
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (int i = 0; i < cumulative.length; i++) {
            buckets.put(Double.parseDouble(ExportedBuckets.LABELS[i]), (double) cumulative[i]);
        }
        buckets.put(Double.POSITIVE_INFINITY, (double) nanos.length);
        double exact = exactP99Seconds(nanos);
        double estimate = HistogramQuantile.estimate(0.99, buckets);
        double error = Math.abs(estimate - exact) / exact;
        assertTrue(error <= 0.05, load + ": estimate " + estimate + " s against exact " + exact + " s");

        double[] octaves = new double[21];
        for (int e = 0; e < octaves.length; e++) {
            octaves[e] = 50e-6 * (1L << e);
        }
        double[] seconds = Arrays.stream(nanos).mapToDouble(n -> n / 1e9).toArray();
        double old = HistogramQuantile.estimate(0.99, HistogramQuantile.of(octaves, seconds));
        double oldError = Math.abs(old - exact) / exact;
        assertTrue(error < oldError, load + ": the new buckets (" + error + ") beat the doubling ones (" + oldError + ")");
    }

    /** The exact p99 as Prometheus ranks it: the value of rank ceil(0.99 n). */
    private static double exactP99Seconds(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e9;
    }

    private static long[] recorded(String load) throws IOException {
        try (InputStream in = ExportedBucketsAccuracyTest.class.getResourceAsStream("recorded-" + load + ".txt")) {
            List<Long> values = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split(" ");
                long tenths = Long.parseLong(f[0]);
                for (long i = 0; i < Long.parseLong(f[1]); i++) {
                    values.add(tenths * 100_000);
                }
            }
            return values.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
