package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.engine.DrivenScope;
import java.util.List;
import java.util.Optional;

/**
 * A fan-out as a call graph without edges, driven by its owner in the engine's one scope: every part
 * that starts at once is forked at once; then, as each ends, its outcome is counted and the
 * {@link StopWhen} rule asked whether the answer is decided, and if it is the owner stops, which
 * cancels what still runs. A delayed part (a hedge's backup) is timed by the owner, not by a thread
 * of its own: it is forked when its delay is over, or at once when a part fails, and only if it is
 * admitted then; one that is not is {@code failed} ("not sent") and never runs. Touched only by the
 * owner thread.
 */
final class FanOutRun implements DrivenScope.Body {

    private final List<FanOut.Part> parts;
    private final StopWhen stopWhen;
    private final long start;
    private final Outcome[] outcomes;
    private final DrivenScope.Ended[] ends;
    private final boolean[] forked;
    private int running;
    private int succeeded;
    private int failed;
    private boolean ruleMet;

    /** @param start when the fan-out began ({@link System#nanoTime()}): delays count from it */
    FanOutRun(List<FanOut.Part> parts, StopWhen stopWhen, long start) {
        this.parts = parts;
        this.stopWhen = stopWhen;
        this.start = start;
        this.outcomes = new Outcome[parts.size()];
        this.ends = new DrivenScope.Ended[parts.size()];
        this.forked = new boolean[parts.size()];
    }

    @Override
    public void run(DrivenScope scope) throws InterruptedException {
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).immediate()) {
                fork(scope, i);
            }
        }
        while (!ruleMet) {
            long due = nextDue();
            if (running == 0 && due == Long.MAX_VALUE) {
                return;   // every part has ended, and none waits
            }
            Optional<DrivenScope.Ended> ended = due == Long.MAX_VALUE ? Optional.of(scope.next()) : scope.next(due);
            ended.ifPresent(this::ended);
            startDue(scope);
        }
    }

    private void fork(DrivenScope scope, int i) {
        forked[i] = true;
        running++;
        FanOut.Part part = parts.get(i);
        scope.fork(i, part.upstream().value(), part.task(), Optional.empty());
    }

    /** When the first delayed part still waiting is due: now once a part has failed; never when none waits. */
    private long nextDue() {
        long due = Long.MAX_VALUE;
        for (int i = 0; i < parts.size(); i++) {
            if (!forked[i] && outcomes[i] == null) {
                due = Math.min(due, failed > 0 ? System.nanoTime() : start + parts.get(i).after().toNanos());
            }
        }
        return due;
    }

    /** Forks each delayed part that is due and admitted; one that is due and not admitted is never sent. */
    private void startDue(DrivenScope scope) {
        for (int i = 0; i < parts.size() && !ruleMet; i++) {
            boolean due = failed > 0 || System.nanoTime() - (start + parts.get(i).after().toNanos()) >= 0;
            if (!forked[i] && outcomes[i] == null && due) {
                if (parts.get(i).admit().getAsBoolean()) {
                    fork(scope, i);
                } else {
                    count(i, new Outcome.Failed(parts.get(i).upstream() + ": not sent"));
                }
            }
        }
    }

    private void ended(DrivenScope.Ended e) {
        running--;
        ends[e.id()] = e;
        count(e.id(), e.succeeded() ? new Outcome.Success(e.value()) : Failures.failed(parts.get(e.id()).upstream(), e.failure()));
    }

    private void count(int i, Outcome outcome) {
        outcomes[i] = outcome;
        if (outcome instanceof Outcome.Success) {
            succeeded++;
        } else {
            failed++;
        }
        ruleMet = stopWhen.decided(succeeded, failed, parts.size());
    }

    /** Part {@code i}'s outcome, or null if it had not ended when the owner stopped. */
    Outcome outcome(int i) {
        return outcomes[i];
    }

    /** When part {@code i} ran: its end as the owner saw it, or as the scope reported it once cancelled ({@link #late}); null if it never ran. */
    DrivenScope.Ended end(int i) {
        return ends[i];
    }

    /** Takes the ends of parts the scope cancelled after the owner stopped. */
    void late(List<DrivenScope.Ended> late) {
        late.forEach(e -> ends[e.id()] = e);
    }

    /** True when the parts decided the answer (a failure under "all", a success under "any", k under "quorum"). */
    boolean ruleMet() {
        return ruleMet;
    }
}
