package io.loomgate.upstream;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The circuit breakers, by upstream (only upstreams that have one): {@code loomgate_breaker_*}, the
 * JSON form's {@code breakers}, and the text form's table.
 */
public record BreakerMetrics(Map<UpstreamId, Breaker.Snapshot> breakers) implements MetricSet {

    public BreakerMetrics {
        breakers = Collections.unmodifiableMap(new LinkedHashMap<>(breakers));   // in the upstreams' order
    }

    @Override
    public void prometheus(MetricSink w) {
        if (breakers.isEmpty()) {
            return;
        }
        w.family("loomgate_breaker_state", "gauge", "Circuit breaker state: 1 for the state it is in, 0 for the others.");
        breakers.forEach((name, b) -> {
            for (Breaker.State state : Breaker.State.values()) {
                w.sample("loomgate_breaker_state", b.state() == state ? 1 : 0, "service", name.value(), "state", state.wire());
            }
        });
        w.family("loomgate_breaker_transitions_total", "counter", "Circuit breaker transitions, by the state entered.");
        breakers.forEach((name, b) -> {
            w.sample("loomgate_breaker_transitions_total", b.opened(), "service", name.value(), "to", "open");
            w.sample("loomgate_breaker_transitions_total", b.halfOpened(), "service", name.value(), "to", "half-open");
            w.sample("loomgate_breaker_transitions_total", b.closed(), "service", name.value(), "to", "closed");
        });
    }

    @Override
    public void topJson(JsonWriter w) {
        w.name("breakers").beginObject();
        breakers.forEach((name, b) -> w.name(name.value()).beginObject().field("state", b.state().wire())
                .field("opened", b.opened()).field("halfOpened", b.halfOpened()).field("closed", b.closed()).endObject());
        w.endObject();
    }

    @Override
    public void text(StringBuilder out) {
        if (breakers.isEmpty()) {
            return;
        }
        out.append("\nCircuit breakers (times each state was entered)\n");
        out.append(String.format("%-11s %-10s %7s %11s %7s%n", "service", "state", "opened", "half-opened", "closed"));
        breakers.forEach((name, b) -> out.append(String.format("%-11s %-10s %7d %11d %7d%n", name.value(),
                b.state().wire(), b.opened(), b.halfOpened(), b.closed())));
    }
}
