package io.loomgate.upstream;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The endpoints of each upstream with several: {@code loomgate_endpoint_*}, and
 * {@code server.endpoints} in the JSON form.
 */
public record EndpointMetrics(Map<UpstreamId, List<EndpointState>> endpoints) implements MetricSet {

    public EndpointMetrics {
        endpoints = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(endpoints));   // in the upstreams' order
    }

    @Override
    public void prometheus(MetricSink w) {
        if (endpoints.isEmpty()) {
            return;
        }
        family(w, "loomgate_endpoint_calls_total", "counter", "Tries sent to each endpoint of an upstream with several, ended.",
                EndpointState::calls);
        family(w, "loomgate_endpoint_failures_total", "counter", "Tries an endpoint failed itself (refused, reset, 5xx, too slow).",
                EndpointState::failures);
        family(w, "loomgate_endpoint_outstanding", "gauge", "Tries each endpoint has now.", EndpointState::outstanding);
        family(w, "loomgate_endpoint_ejections_total", "counter", "Times an endpoint was ejected by outlier detection.",
                EndpointState::ejections);
        family(w, "loomgate_endpoint_ejected", "gauge", "1 while an endpoint is ejected by outlier detection.", e -> e.ejected() ? 1 : 0);
        family(w, "loomgate_endpoint_healthy", "gauge", "1 while an endpoint's health checks (if any) say it is up.",
                e -> e.healthy() ? 1 : 0);
        String h = "loomgate_endpoint_try_duration_seconds";
        w.family(h, "histogram", "How long each endpoint's tries took, from the request sent to the answer's head (cancelled tries not counted).");
        endpoints.forEach((id, list) -> list.forEach(e -> w.histogram(h, e.latency(), "service", id.value(), "endpoint", e.endpoint())));
    }

    private void family(MetricSink w, String name, String type, String help, ToDoubleFunction<EndpointState> value) {
        w.family(name, type, help);
        endpoints.forEach((id, list) -> list.forEach(e -> w.sample(name, value.applyAsDouble(e), "service", id.value(),
                "endpoint", e.endpoint())));
    }

    @Override
    public void serverJson(JsonWriter w) {
        if (endpoints.isEmpty()) {
            return;
        }
        w.name("endpoints").beginObject();
        endpoints.forEach((id, list) -> w.name(id.value()).tree(list.stream().map(EndpointState::json).toList()));
        w.endObject();
    }
}
