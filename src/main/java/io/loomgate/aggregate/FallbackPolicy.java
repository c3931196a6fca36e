package io.loomgate.aggregate;

import io.loomgate.config.Durations;
import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each part stands alone: one that fails, or is still running at the deadline, is replaced by its
 * fallback value (a generic one for services {@code fallbacks} does not name). Nothing is cancelled
 * early. The answer is {@code ok}, or {@code degraded} (still 200, but {@code completed: false})
 * when a fallback was used.
 */
record FallbackPolicy(Map<ServiceName, ServiceValue> fallbacks) implements Policy {

    FallbackPolicy {
        fallbacks = Map.copyOf(fallbacks);
    }

    @Override
    public String name() {
        return "fallback";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.ALL_DONE;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        List<PartResult> parts = new ArrayList<>();
        boolean degraded = false;
        for (Completion c : result.completions()) {
            Outcome outcome = switch (c.result()) {
                case Completion.Returned r -> new Outcome.Success(r.value());
                case Completion.Threw t -> new Outcome.Fallback(fallbackOf(c.service()),
                        Failures.describe(c.service(), t.error()));
                case Completion.Unfinished _, Completion.NeverStarted _ -> new Outcome.Fallback(fallbackOf(c.service()),
                        "deadline of " + Durations.format(result.timeout()) + " passed");
            };
            degraded |= outcome instanceof Outcome.Fallback;
            parts.add(new PartResult(c.service(), outcome, c.duration()));
        }
        return new Aggregation(name(), degraded ? Status.DEGRADED : Status.OK, parts, Optional.empty(), result.took());
    }

    private ServiceValue fallbackOf(ServiceName service) {
        ServiceValue v = fallbacks.get(service);
        return v != null ? v : new ServiceValue.Text("fallback for " + service.wire());
    }
}
