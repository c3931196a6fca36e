package io.loomgate.core.fanout;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Status;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.port.RetryBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A hedged request ("The Tail at Scale", Dean and Barroso, 2013): call the primary; if it has not
 * answered after the hedge delay, and the budget allows, send one backup copy, to the second
 * upstream or, when there is only one, to the same. A primary that fails sends the backup at once
 * (budget allowing) instead of after the delay. The first success wins and the scope cancels the
 * other copy. The answer lists the backup only when it was sent.
 *
 * <p>Unlike the other policies it keeps state across requests: the {@link RetryBudget} and, for an
 * adaptive delay, the primary's {@link LatencyWindow}. A primary cut short by its backup is recorded
 * with the time it had run: a lower bound, but one above the delay, so the slow tail stays in the
 * window and the percentile is not pulled down by the very hedges it triggers.
 */
public final class HedgePolicy implements Policy {

    /** {@code "policy": "hedge"}, with its {@code hedge} object ({@link HedgeReading}). */
    public static final PolicyModule MODULE = new HedgeReading();

    private final HedgeSettings settings;
    private final RetryBudget budget;
    private final Optional<LatencyWindow> window;

    HedgePolicy(HedgeSettings settings) {
        this.settings = settings;
        this.budget = new RetryBudget(settings.budget(), settings.minPerSecond(), System::nanoTime);
        this.window = settings.adaptive()
                ? Optional.of(new LatencyWindow(settings.percentile().getAsDouble())) : Optional.empty();
    }

    @Override
    public String name() {
        return "hedge";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_SUCCESS;
    }

    /** The primary, and the backup that waits for the delay and then asks the budget. */
    @Override
    public List<FanOut.Part> parts(List<FanOut.Part> replicas) {
        FanOut.Part primary = replicas.getFirst();
        FanOut.Part target = replicas.getLast();
        budget.firstTrySent();
        return List.of(primary, new FanOut.Part(target.upstream(), target.task(), delay(), budget::trySpend));
    }

    /** The fixed delay, or the primary's recent percentile but not below the floor. */
    Duration delay() {
        if (window.isEmpty()) {
            return settings.after();
        }
        Duration recent = window.get().value().orElse(settings.after());
        return recent.compareTo(settings.after()) > 0 ? recent : settings.after();
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        FinishedCall primary = result.parts().get(0);
        FinishedCall backup = result.parts().get(1);
        if (primary.started()) {
            window.ifPresent(w -> w.record(primary.duration()));
        }
        boolean sent = backup.started();
        List<FinishedCall> shown = sent ? result.parts() : List.of(primary);
        Optional<String> winner = primary.outcome() instanceof Outcome.Success ? Optional.of("primary")
                : backup.outcome() instanceof Outcome.Success ? Optional.of("backup") : Optional.empty();
        HedgeReport report = new HedgeReport(sent, backup.start(), winner);
        if (winner.isPresent()) {
            return new Aggregation(name(), Status.OK, shown, Optional.empty(), result.took(), Optional.of(report));
        }
        List<UpstreamId> unfinished = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (FinishedCall p : shown) {
            if (p.outcome().unfinished()) {
                unfinished.add(p.upstream());
            } else if (p.outcome() instanceof Outcome.Failed f) {
                reasons.add(f.reason());
            }
        }
        if (result.deadlineHit() && !unfinished.isEmpty()) {
            return new Aggregation(name(), Status.TIMEOUT, shown,
                    Optional.of(Failures.deadlinePassed(result.timeout(), unfinished)), result.took(), Optional.of(report));
        }
        String error = (sent ? "both copies failed: " : "failed and no backup was sent: ") + String.join("; ", reasons);
        return new Aggregation(name(), Status.FAILED, shown, Optional.of(error), result.took(), Optional.of(report));
    }
}
