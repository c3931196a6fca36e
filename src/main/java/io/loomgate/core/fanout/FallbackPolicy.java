package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import io.loomgate.config.Durations;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each part stands alone: one that fails, or is still running at the deadline, is replaced by its
 * fallback value (a generic one for upstreams {@code fallbacks} does not name). Nothing is cancelled
 * early. The answer is {@code ok}, or {@code degraded} (still 200, but {@code completed: false})
 * when a fallback was used.
 */
public record FallbackPolicy(Map<UpstreamId, Value> fallbacks) implements Policy {

    /** {@code "policy": "fallback", "fallbacks": {"db": ...}}: the values that stand in, by upstream of the route. */
    public static final PolicyModule MODULE = new PolicyModule() {
        @Override
        public String name() {
            return "fallback";
        }

        @Override
        public List<String> fields() {
            return List.of("fallbacks");
        }

        @Override
        public PolicySpec read(Fields route, List<UpstreamId> upstreams) throws RouteFileException {
            Map<UpstreamId, Object> fallbacks = new LinkedHashMap<>();
            for (var e : route.optionalObject("fallbacks").orElse(Map.of()).entrySet()) {
                String field = "fallbacks." + e.getKey();
                if (!UpstreamId.isValid(e.getKey())) {
                    throw route.bad(field, "must be an id of " + UpstreamId.ACCEPTED, e.getKey());
                }
                UpstreamId id = UpstreamId.of(e.getKey());
                if (!upstreams.contains(id)) {
                    throw route.bad(field, "must be an upstream of this route (" + String.join(", ",
                            upstreams.stream().map(UpstreamId::value).toList()) + ")", e.getKey());
                }
                fallbacks.put(id, e.getValue());
            }
            return new Declared(fallbacks);
        }

        @Override
        public void refuseOn(Fields route, String other) throws RouteFileException {
            if (route.optionalObject("fallbacks").isPresent()) {
                throw route.bad("fallbacks", "are only for policy fallback", "policy " + other);
            }
        }
    };

    /** A fallback route's values as its file writes them (any JSON), by upstream. */
    public record Declared(Map<UpstreamId, Object> json) implements PolicySpec {
        public Declared {
            json = Collections.unmodifiableMap(new LinkedHashMap<>(json));
        }

        @Override
        public String name() {
            return "fallback";
        }

        @Override
        public Policy build() {
            Map<UpstreamId, Value> values = new LinkedHashMap<>();
            json.forEach((id, v) -> values.put(id, w -> w.tree(v)));
            return new FallbackPolicy(values);
        }

        @Override
        public void print(JsonWriter w) {
            if (!json.isEmpty()) {
                w.name("fallbacks").beginObject();
                json.forEach((id, v) -> w.name(id.value()).tree(v));
                w.endObject();
            }
        }
    }

    public FallbackPolicy {
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
        List<FinishedCall> parts = new ArrayList<>();
        boolean degraded = false;
        for (FinishedCall p : result.parts()) {
            Outcome outcome = switch (p.outcome()) {
                case Outcome.Success s -> s;
                case Outcome.Fallback f -> f;
                case Outcome.Failed f -> new Outcome.Fallback(fallbackOf(p.upstream()), f.reason());
                case Outcome.Cancelled _, Outcome.TimedOut _, Outcome.Orphaned _ -> new Outcome.Fallback(
                        fallbackOf(p.upstream()), "deadline of " + Durations.format(result.timeout()) + " passed");
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
