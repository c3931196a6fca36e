package io.loomgate.aggregate;

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
        Outcome stopped = !won && result.deadlineHit() ? new Outcome.TimedOut() : new Outcome.Cancelled();
        SortedParts s = SortedParts.of(result, stopped, stopped);
        if (won) {
            return new Aggregation(name(), Status.OK, s.parts(), Optional.empty(), result.took());
        }
        if (result.deadlineHit() && !s.unfinished().isEmpty()) {
            return new Aggregation(name(), Status.TIMEOUT, s.parts(),
                    Optional.of(Failures.deadlinePassed(result.timeout(), s.unfinished())), result.took());
        }
        return new Aggregation(name(), Status.FAILED, s.parts(),
                Optional.of("all " + s.failed().size() + " failed: " + Failures.names(s.failed())), result.took());
    }
}
