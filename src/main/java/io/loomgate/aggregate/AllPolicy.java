package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import java.util.ArrayList;
import java.util.List;
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
        List<PartResult> parts = new ArrayList<>();
        List<ServiceName> failed = new ArrayList<>();
        List<ServiceName> running = new ArrayList<>();
        for (Completion c : result.completions()) {
            Outcome outcome = switch (c.result()) {
                case Completion.Returned r -> new Outcome.Success(r.value());
                case Completion.Threw t -> {
                    failed.add(c.service());
                    yield new Outcome.Failed(Failures.describe(c.service(), t.error()));
                }
                case Completion.Unfinished u -> {
                    running.add(c.service());
                    yield unfinished;
                }
                case Completion.NeverStarted n -> {
                    running.add(c.service());
                    yield neverStarted;
                }
            };
            parts.add(new PartResult(c.service(), outcome, c.duration()));
        }
        if (!failed.isEmpty()) {
            return new Aggregation(name, Status.FAILED, parts, Optional.of("failed: " + Failures.names(failed)), result.took());
        }
        if (result.deadlineHit() && !running.isEmpty()) {
            return new Aggregation(name, Status.TIMEOUT, parts,
                    Optional.of(Failures.deadlinePassed(result.timeout(), running)), result.took());
        }
        return new Aggregation(name, Status.OK, parts, Optional.empty(), result.took());
    }
}
