package io.loomgate.observe.histogram;

import io.loomgate.observe.histogram.ExportedBuckets;
import io.loomgate.observe.histogram.Histogram;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Latencies and errors of the last minute, for the dashboard: six slots of ten seconds, each a
 * histogram with {@link Histogram}'s buckets and an error count. A slot is cleared when the clock
 * comes round to it again, so the window covers the last 50 to 60 seconds. Recording is lock-free
 * except for the first record of each ten seconds, which clears its slot; a record racing that
 * clear may be lost, which a dashboard can afford.
 */
public final class LastMinute {

    static final int SLOTS = 6;
    static final long SLOT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Slot[] slots = new Slot[SLOTS];
    private final LongSupplier clock;

    public LastMinute() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime()} (tests pass their own) */
    LastMinute(LongSupplier clock) {
        this.clock = clock;
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot();
        }
    }

    /** Records one request; {@code error} for a 5xx answer. */
    public void record(long nanos, boolean error) {
        long epoch = Math.floorDiv(clock.getAsLong(), SLOT_NANOS);
        Slot slot = slots[(int) Math.floorMod(epoch, SLOTS)];
        if (slot.epoch != epoch) {
            slot.reset(epoch);
        }
        slot.counts.incrementAndGet(Histogram.indexOf(Math.max(0, nanos)));
        if (error) {
            slot.counts.incrementAndGet(Histogram.BUCKETS);
        }
    }

    /** The window's latencies (no sum or max kept) and its count of errors. */
    public Window snapshot() {
        long now = Math.floorDiv(clock.getAsLong(), SLOT_NANOS);
        long[] counts = new long[Histogram.BUCKETS];
        long errors = 0;
        for (Slot s : slots) {
            if (now - s.epoch < SLOTS) {
                for (int i = 0; i < Histogram.BUCKETS; i++) {
                    counts[i] += s.counts.get(i);
                }
                errors += s.counts.get(Histogram.BUCKETS);
            }
        }
        return new Window(new HistogramSnapshot(counts, 0, Long.MAX_VALUE, new long[ExportedBuckets.BOUNDS.length + 1]),
                errors);
    }

    /**
     * @param latency the last minute's latencies; count and percentiles only
     * @param errors  5xx answers in the last minute
     */
    public record Window(HistogramSnapshot latency, long errors) {
    }

    private static final class Slot {
        /** The bucket counts, then the error count. */
        final AtomicLongArray counts = new AtomicLongArray(Histogram.BUCKETS + 1);
        volatile long epoch = Long.MIN_VALUE / 2;

        synchronized void reset(long next) {
            if (epoch != next) {
                for (int i = 0; i < counts.length(); i++) {
                    counts.set(i, 0);
                }
                epoch = next;
            }
        }
    }
}
