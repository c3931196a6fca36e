package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.config.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each part stands alone: one that fails, or is still running at the deadline, is replaced by its
 * fallback value (a generic one for upstreams {@code fallbacks} does not name). Nothing is cancelled
 * early. The answer is {@code ok}, or {@code degraded} (still 200, but {@code completed: false})
 * when a fallback was used.
 */
record FallbackPolicy(Map<UpstreamId, Value> fallbacks) implements Policy {

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
        for (PartResult p : result.parts()) {
            Outcome outcome = switch (p.outcome()) {
                case Outcome.Success s -> s;
                case Outcome.Fallback f -> f;
                case Outcome.Failed f -> new Outcome.Fallback(fallbackOf(p.service()), f.reason());
                case Outcome.Cancelled _, Outcome.TimedOut _, Outcome.Orphaned _ -> new Outcome.Fallback(
                        fallbackOf(p.service()), "deadline of " + Durations.format(result.timeout()) + " passed");
            };
            degraded |= outcome instanceof Outcome.Fallback;
            parts.add(p.with(outcome));
        }
        return new Aggregation(name(), degraded ? Status.DEGRADED : Status.OK, parts, Optional.empty(), result.took());
    }

    private Value fallbackOf(UpstreamId service) {
        Value v = fallbacks.get(service);
        return v != null ? v : Value.text("fallback for " + service);
    }
}
