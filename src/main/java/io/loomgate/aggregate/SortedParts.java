package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import java.util.ArrayList;
import java.util.List;

/**
 * A fan-out's parts, each given its outcome, with the services that failed and those that had not
 * finished: what the "all" and "any" policies (and the baseline) decide their status from.
 */
record SortedParts(List<PartResult> parts, List<ServiceName> failed, List<ServiceName> unfinished) {

    /**
     * Success for a part that returned, Failed for one that threw, {@code unfinished} for one still
     * running when the fan-out stopped waiting, {@code neverStarted} for one that never ran.
     */
    static SortedParts of(FanOutResult result, Outcome unfinished, Outcome neverStarted) {
        List<PartResult> parts = new ArrayList<>();
        List<ServiceName> failed = new ArrayList<>();
        List<ServiceName> notDone = new ArrayList<>();
        for (Completion c : result.completions()) {
            Outcome outcome = switch (c.result()) {
                case Completion.Returned r -> new Outcome.Success(r.value());
                case Completion.Threw t -> {
                    failed.add(c.service());
                    yield new Outcome.Failed(Failures.describe(c.service(), t.error()));
                }
                case Completion.Unfinished u -> {
                    notDone.add(c.service());
                    yield unfinished;
                }
                case Completion.NeverStarted n -> {
                    notDone.add(c.service());
                    yield neverStarted;
                }
            };
            parts.add(new PartResult(c.service(), outcome, c.duration()));
        }
        return new SortedParts(parts, failed, notDone);
    }
}
