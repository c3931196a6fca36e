package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every part must succeed. A failure decides the answer ({@code failed}, 502) and the parts still
 * running are cancelled; at the deadline, the unfinished parts make it a {@code timeout} (504).
 */
public record AllPolicy() implements Policy, PolicySpec {

    /** {@code "policy": "all"}. */
    public static final PolicyModule MODULE = PolicyModule.plain("all", new AllPolicy());

    @Override
    public Policy build() {
        return this;
    }

    @Override
    public boolean stopsAtFirstFailure() {
        return true;
    }

    @Override
    public String name() {
        return "all";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_FAILURE;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        return mergeAll(name(), result);
    }

    static Aggregation mergeAll(String name, FanOutResult result) {
        List<UpstreamId> failed = new ArrayList<>();
        List<UpstreamId> unfinished = new ArrayList<>();
        for (FinishedCall p : result.parts()) {
            if (p.outcome() instanceof Outcome.Failed) {
                failed.add(p.upstream());
            } else if (p.outcome().unfinished()) {
                unfinished.add(p.upstream());
            }
        }
        if (!failed.isEmpty()) {
            return new Aggregation(name, Status.FAILED, result.parts(), Optional.of("failed: " + Failures.names(failed)),
                    result.took());
        }
        if (result.deadlineHit() && !unfinished.isEmpty()) {
            return new Aggregation(name, Status.TIMEOUT, result.parts(),
                    Optional.of(Failures.deadlinePassed(result.timeout(), unfinished)), result.took());
        }
        return new Aggregation(name, Status.OK, result.parts(), Optional.empty(), result.took());
    }
}
