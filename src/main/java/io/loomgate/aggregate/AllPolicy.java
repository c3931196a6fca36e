package io.loomgate.aggregate;

import java.util.Optional;

/**
 * Every part must succeed. A failure decides the answer ({@code failed}, 502) and the parts still
 * running are {@code cancelled}; at the deadline they are {@code timeout} (504).
 */
record AllPolicy(String name) implements Policy {

    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_FAILURE;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        Outcome stopped = result.deadlineHit() ? new Outcome.TimedOut() : new Outcome.Cancelled();
        return mergeAll(name, result, stopped, stopped);
    }

    /**
     * The "all" merge, with {@code unfinished} as the outcome of parts that had started and not
     * finished, and {@code neverStarted} as that of parts that never started.
     */
    static Aggregation mergeAll(String name, FanOutResult result, Outcome unfinished, Outcome neverStarted) {
        SortedParts s = SortedParts.of(result, unfinished, neverStarted);
        if (!s.failed().isEmpty()) {
            return new Aggregation(name, Status.FAILED, s.parts(), Optional.of("failed: " + Failures.names(s.failed())),
                    result.took());
        }
        if (result.deadlineHit() && !s.unfinished().isEmpty()) {
            return new Aggregation(name, Status.TIMEOUT, s.parts(),
                    Optional.of(Failures.deadlinePassed(result.timeout(), s.unfinished())), result.took());
        }
        return new Aggregation(name, Status.OK, s.parts(), Optional.empty(), result.took());
    }
}
