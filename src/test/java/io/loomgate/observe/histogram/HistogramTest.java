package io.loomgate.observe.histogram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HistogramTest {

    private static final long MS = 1_000_000;

    @Test
    void bucketsAreLogLinearFrom50MicrosecondsPast60Seconds() {
        assertEquals(325, Histogram.BUCKETS);
        assertEquals(0, Histogram.indexOf(0));
        assertEquals(0, Histogram.indexOf(49_999));
        assertEquals(1, Histogram.indexOf(50_000));
        assertEquals(1, Histogram.indexOf(53_124));
        assertEquals(2, Histogram.indexOf(53_125));
        assertEquals(16, Histogram.indexOf(99_999));
        assertEquals(17, Histogram.indexOf(100_000));
        assertEquals(Histogram.BUCKETS - 2, Histogram.indexOf(60_000 * MS), "60 s is still in a finite bucket");
        assertEquals(Histogram.BUCKETS - 1, Histogram.indexOf(63_000 * MS));
        assertEquals(Histogram.BUCKETS - 1, Histogram.indexOf(Long.MAX_VALUE));
        for (int i = 1; i < Histogram.BUCKETS - 1; i++) {
            long lo = Histogram.lowerBound(i);
            long hi = Histogram.upperBound(i);
            assertEquals(i, Histogram.indexOf(lo));
            assertEquals(i, Histogram.indexOf(hi - 1));
            assertTrue((hi - lo) * Histogram.SUB_BUCKETS <= lo, "bucket " + i + " is at most 1/16 of its lower bound wide");
        }
    }

    /** Exact percentile by the same rank rule: the value of rank ceil(q * n). */
    private static long exact(long[] sorted, double q) {
        return sorted[(int) Math.ceil(q * sorted.length) - 1];
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uniform 1-1000 ms", "log-uniform 50 µs-60 s", "exponential mean 20 ms", "bimodal 300 ms / 5 ms", "constant 300 ms"})
    void percentilesAreWithinOneThirtySecondOfTheExactValue(String distribution) {
        SplittableRandom random = new SplittableRandom(distribution.hashCode());
        LongSupplier next = switch (distribution) {
            case "uniform 1-1000 ms" -> () -> random.nextLong(MS, 1000 * MS);
            case "log-uniform 50 µs-60 s" -> () -> (long) Math.exp(random.nextDouble(Math.log(50_000), Math.log(60_000 * MS)));
            case "exponential mean 20 ms" -> () -> 50_000 + (long) (-Math.log(1 - random.nextDouble()) * 20 * MS);
            case "bimodal 300 ms / 5 ms" -> () -> random.nextInt(10) < 7 ? 300 * MS + random.nextLong(MS) : 5 * MS;
            default -> () -> 300 * MS;
        };
        Histogram h = new Histogram();
        long[] values = new long[50_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = next.getAsLong();
            h.record(values[i]);
        }
        Arrays.sort(values);
        HistogramSnapshot s = h.snapshot();
        for (double q : new double[] {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
            long want = exact(values, q);
            double got = s.percentileNanos(q);
            double error = Math.abs(got - want) / want;
            assertTrue(error <= 1.0 / 32, distribution + " q=" + q + ": " + got + " vs exact " + want + " (error " + error + ")");
        }
        assertEquals(values.length, s.count());
        assertEquals(values[values.length - 1], s.maxNanos());
        assertEquals(Arrays.stream(values).sum(), s.sumNanos());
    }

    @Test
    void concurrentRecordingLosesNothing() throws Exception {
        Histogram h = new Histogram();
        int threads = 8;
        int perThread = 100_000;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        h.record((i % 1000) * MS / 10);
                    }
                });
            }
        }
        HistogramSnapshot s = h.snapshot();
        assertEquals((long) threads * perThread, s.count());
        long oneThread = 0;
        for (int i = 0; i < perThread; i++) {
            oneThread += (i % 1000) * MS / 10;
        }
        assertEquals(oneThread * threads, s.sumNanos());
        assertEquals(999 * MS / 10, s.maxNanos());
    }

    @Test
    void recordingDoesNotAllocate() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Histogram h = new Histogram();
        for (int i = 0; i < 10_000; i++) {
            h.record(i * 1000L);  // warm up: JIT, and any lazily created state
        }
        long tid = Thread.currentThread().threadId();
        // The least of three rounds: a one-off allocation on this thread (a deoptimization, the JVM
        // loading something) shows in one round only; an allocation per record would be 1.6 MB in each.
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long before = threads.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 100_000; i++) {
                h.record(i * 1000L);
            }
            allocated = Math.min(allocated, threads.getThreadAllocatedBytes(tid) - before);
        }
        assertTrue(allocated < 1_000, "100,000 records allocated " + allocated + " bytes");
    }

    @Test
    void emptyHistogramsAnswerZero() {
        HistogramSnapshot s = new Histogram().snapshot();
        assertEquals(0, s.count());
        assertEquals(0, s.percentileNanos(0.99));
        assertEquals(0, s.meanNanos());
        assertThrows(IllegalArgumentException.class, () -> s.percentileNanos(0));
        assertThrows(IllegalArgumentException.class, () -> s.percentileNanos(1.5));
    }

    @Test
    void outOfRangeValuesAreClampedSensibly() {
        Histogram h = new Histogram();
        h.record(-5);
        h.record(10_000);
        assertEquals(10_000, h.snapshot().percentileNanos(1.0), "underflow midpoint clamped to the max");
        h.record(120_000 * MS);
        assertEquals(120_000 * MS, h.snapshot().percentileNanos(1.0), "overflow answers the max");
    }

    @Test
    void cumulativeExportedCountsAreWhatPrometheusNeeds() {
        Histogram h = new Histogram();
        h.record(500_000);       // 0.5 ms: le=0.001 and up
        h.record(MS);            // exactly 1 ms: le=0.001 counts it ("less or equal")
        h.record(300 * MS);      // le=0.302 and up, not le=0.288
        h.record(100_000 * MS);  // past 60 s: only in +Inf
        long[] cumulative = h.snapshot().cumulativeExported();
        List<String> labels = List.of(ExportedBuckets.LABELS);
        assertEquals(ExportedBuckets.BOUNDS.length, cumulative.length);
        assertEquals(2, cumulative[labels.indexOf("0.001")]);
        assertEquals(2, cumulative[labels.indexOf("0.288")]);
        assertEquals(3, cumulative[labels.indexOf("0.302")]);
        assertEquals(3, cumulative[labels.indexOf("60")], "the 100 s value only shows in +Inf");
        assertEquals(1, h.snapshot().exported()[cumulative.length]);
        for (int i = 1; i < cumulative.length; i++) {
            assertTrue(cumulative[i] >= cumulative[i - 1]);
        }
    }

    @Test
    void theExportedBoundsAreAtMostFivePercentApartFrom100msTo2point5s() {
        long[] b = ExportedBuckets.BOUNDS;
        int dense = 0;
        for (int i = 1; i < b.length; i++) {
            assertTrue(b[i] > b[i - 1], "ascending");
            if (b[i - 1] >= 100 * MS && b[i] <= 2_500 * MS) {
                assertTrue(b[i] <= b[i - 1] * 1.05, ExportedBuckets.LABELS[i - 1] + " to " + ExportedBuckets.LABELS[i]);
                dense++;
            }
        }
        assertEquals(68, dense, "buckets between 100 ms and 2.5 s");
        assertEquals(85, b.length, "docs/observability.md states this count");
    }

    @Test
    void snapshotsSubtractAndAdd() {
        Histogram h = new Histogram();
        h.record(MS);
        HistogramSnapshot first = h.snapshot();
        h.record(300 * MS);
        h.record(300 * MS);
        HistogramSnapshot interval = h.snapshot().minus(first);
        assertEquals(2, interval.count());
        assertEquals(600 * MS, interval.sumNanos());
        double p50 = interval.percentileNanos(0.5);
        assertTrue(Math.abs(p50 - 300 * MS) <= 300 * MS / 32.0, String.valueOf(p50));
        assertEquals(3, first.plus(interval).count());
        assertArrayEquals(h.snapshot().counts(), first.plus(interval).counts());
    }
}
