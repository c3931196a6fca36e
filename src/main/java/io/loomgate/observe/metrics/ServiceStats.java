package io.loomgate.observe.metrics;

import io.loomgate.core.call.Outcome;
import io.loomgate.observe.histogram.Histogram;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/** One upstream's counters: calls by outcome, call latency, and the work orphans did after their answer. */
final class ServiceStats {

    private final AtomicLongArray byOutcome = new AtomicLongArray(Outcome.Kind.values().length);
    private final Histogram latency = new Histogram();
    private final LongAdder orphanedNanos = new LongAdder();

    void called(Outcome.Kind outcome, long nanos) {
        byOutcome.incrementAndGet(outcome.ordinal());
        latency.record(nanos);
    }

    void orphanEnded(long nanosAfterResponse) {
        orphanedNanos.add(nanosAfterResponse);
    }

    ServiceSnapshot snapshot(long inFlight) {
        Map<Outcome.Kind, Long> calls = new EnumMap<>(Outcome.Kind.class);
        for (Outcome.Kind o : Outcome.Kind.values()) {
            calls.put(o, byOutcome.get(o.ordinal()));
        }
        return new ServiceSnapshot(inFlight, calls, latency.snapshot(), orphanedNanos.sum());
    }

    /**
     * @param inFlight      calls running now
     * @param calls         calls by outcome
     * @param latency       call durations (until the call ended, or, for orphans, until the answer)
     * @param orphanedNanos work the CompletableFuture baselines' orphans did after their answer
     */
    record ServiceSnapshot(long inFlight, Map<Outcome.Kind, Long> calls, HistogramSnapshot latency, long orphanedNanos) {
    }
}
