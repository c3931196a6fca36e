package io.loomgate.observe.otlp;

import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;

/**
 * The trace exporter's counts, read once: spans sent to {@code --otlp-endpoint} and taken by it, and
 * spans dropped. Without an exporter both are 0, and still shown, so a dashboard's query finds them.
 */
public record SpanMetrics(long exported, long dropped) implements MetricSet {

    /** No exporter: nothing sent, nothing dropped. */
    public static final SpanMetrics NONE = new SpanMetrics(0, 0);

    /** {@code exporter}'s counts now. */
    public static SpanMetrics of(OtlpExporter exporter) {
        return new SpanMetrics(exporter.exported(), exporter.dropped());
    }

    @Override
    public void prometheus(MetricSink w) {
        w.family("loomgate_trace_spans_exported_total", "counter", "Spans sent to --otlp-endpoint and taken by it.");
        w.sample("loomgate_trace_spans_exported_total", exported);
        w.family("loomgate_trace_spans_dropped_total", "counter",
                "Spans dropped: the queue was full, or the backend refused or did not take their batch.");
        w.sample("loomgate_trace_spans_dropped_total", dropped);
    }

    @Override
    public void serverJson(JsonWriter w) {
        w.name("traceSpans").beginObject().field("exported", exported).field("dropped", dropped).endObject();
    }
}
