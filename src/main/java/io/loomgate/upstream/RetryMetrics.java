package io.loomgate.upstream;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Retries of upstream calls, by upstream: sent, and refused by the upstream's retry budget
 * ({@code loomgate_retries_total}, the JSON form's {@code retries}, the text form's table of those
 * that retried).
 */
public record RetryMetrics(Map<UpstreamId, Counts> retries) implements MetricSet {

    /** One upstream's retries, read once. */
    public record Counts(long sent, long refusedByBudget) {
    }

    public RetryMetrics {
        retries = Collections.unmodifiableMap(new LinkedHashMap<>(retries));   // in the upstreams' order
    }

    static RetryMetrics of(Map<UpstreamId, RetryStats> stats) {
        Map<UpstreamId, Counts> counts = new LinkedHashMap<>();
        stats.forEach((id, s) -> counts.put(id, new Counts(s.sentCount(), s.refusedCount())));
        return new RetryMetrics(counts);
    }

    @Override
    public void prometheus(MetricSink w) {
        w.family("loomgate_retries_total", "counter", "Retries of upstream calls: sent, and refused by the upstream's retry budget.");
        retries.forEach((name, r) -> {
            w.sample("loomgate_retries_total", r.sent(), "service", name.value(), "result", "sent");
            w.sample("loomgate_retries_total", r.refusedByBudget(), "service", name.value(), "result", "refused_by_budget");
        });
    }

    @Override
    public void topJson(JsonWriter w) {
        w.name("retries").beginObject();
        retries.forEach((name, r) -> w.name(name.value()).beginObject().field("sent", r.sent())
                .field("refusedByBudget", r.refusedByBudget()).endObject());
        w.endObject();
    }

    @Override
    public void text(StringBuilder out) {
        if (retries.values().stream().noneMatch(r -> r.sent() + r.refusedByBudget() > 0)) {
            return;
        }
        out.append("\nRetries\n");
        out.append(String.format("%-11s %8s %18s%n", "service", "sent", "refused by budget"));
        retries.forEach((name, r) -> {
            if (r.sent() + r.refusedByBudget() > 0) {
                out.append(String.format("%-11s %8d %18d%n", name.value(), r.sent(), r.refusedByBudget()));
            }
        });
    }
}
