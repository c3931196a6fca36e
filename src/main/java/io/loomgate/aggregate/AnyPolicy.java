package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The first success wins; the losers still running are {@code cancelled}. When every part fails the
 * answer is {@code failed} and lists every failure; at the deadline without a winner, {@code timeout}.
 */
record AnyPolicy() implements Policy {

    @Override
    public String name() {
        return "any";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_SUCCESS;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        boolean won = result.completions().stream().anyMatch(c -> c.result() instanceof Completion.Returned);
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
                case Completion.Unfinished _, Completion.NeverStarted _ -> {
                    running.add(c.service());
                    yield !won && result.deadlineHit() ? new Outcome.TimedOut() : new Outcome.Cancelled();
                }
            };
            parts.add(new PartResult(c.service(), outcome, c.duration()));
        }
        if (won) {
            return new Aggregation(name(), Status.OK, parts, Optional.empty(), result.took());
        }
        if (result.deadlineHit() && !running.isEmpty()) {
            return new Aggregation(name(), Status.TIMEOUT, parts,
                    Optional.of(Failures.deadlinePassed(result.timeout(), running)), result.took());
        }
        return new Aggregation(name(), Status.FAILED, parts,
                Optional.of("all " + failed.size() + " failed: " + Failures.names(failed)), result.took());
    }
}
