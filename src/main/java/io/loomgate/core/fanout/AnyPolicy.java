package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The first success wins; the losers still running are cancelled. When every part fails the answer
 * is {@code failed} and lists every failure; at the deadline without a winner, {@code timeout}.
 */
public record AnyPolicy() implements Policy, PolicySpec {

    /** {@code "policy": "any"}. */
    public static final PolicyModule MODULE = PolicyModule.plain("any", new AnyPolicy());

    @Override
    public Policy build() {
        return this;
    }

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
        List<UpstreamId> failed = new ArrayList<>();
        List<UpstreamId> unfinished = new ArrayList<>();
        boolean won = false;
        for (FinishedCall p : result.parts()) {
            switch (p.outcome()) {
                case Outcome.Success _ -> won = true;
                case Outcome.Failed _ -> failed.add(p.upstream());
                case Outcome o when o.unfinished() -> unfinished.add(p.upstream());
                default -> { }
            }
        }
        if (won) {
            return new Aggregation(name(), Status.OK, result.parts(), Optional.empty(), result.took());
        }
        if (result.deadlineHit() && !unfinished.isEmpty()) {
            return new Aggregation(name(), Status.TIMEOUT, result.parts(),
                    Optional.of(Failures.deadlinePassed(result.timeout(), unfinished)), result.took());
        }
        return new Aggregation(name(), Status.FAILED, result.parts(),
                Optional.of("all " + failed.size() + " failed: " + Failures.names(failed)), result.took());
    }
}
