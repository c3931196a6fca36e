package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;

/**
 * When each part of a fan-out began and ended, stamped by the part's own thread, and the
 * {@link PartResult}s those times make once every part has ended. A part that never began (a
 * backup never sent, a part the scope stopped before its turn) has no start and a zero duration.
 */
final class PartClock {

    private final long start;
    private final AtomicLongArray began;
    private final AtomicLongArray ended;

    /** @param start when the fan-out began ({@link System#nanoTime()}) */
    PartClock(long start, int parts) {
        this.start = start;
        this.began = new AtomicLongArray(parts);
        this.ended = new AtomicLongArray(parts);
    }

    void began(int index) {
        began.set(index, System.nanoTime());
    }

    void ended(int index) {
        ended.set(index, System.nanoTime());
    }

    /** Each part's result: its recorded outcome, or {@code stopped} when it had not finished. */
    List<PartResult> results(List<FanOut.Part> parts, IntFunction<Outcome> recorded, Outcome stopped) {
        List<PartResult> results = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            long from = began.get(i);
            Outcome outcome = recorded.apply(i);
            Duration took = from == 0 ? Duration.ZERO : Duration.ofNanos(ended.get(i) - from);
            Optional<Duration> startedAt = from == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(from - start));
            results.add(new PartResult(parts.get(i).service(), outcome != null ? outcome : stopped, startedAt, took));
        }
        return results;
    }
}
