package io.loomgate.observe.otlp;

import io.loomgate.json.JsonWriter;
import io.loomgate.trace.Span;
import java.util.List;
import java.util.Map;

/**
 * Spans as an OTLP/HTTP JSON {@code ExportTraceServiceRequest}
 * ({@code opentelemetry/proto/collector/trace/v1}): one resource ({@code service.name}), one scope
 * ({@code io.loomgate}), ids in hex, times as strings of Unix nanoseconds, as the OTLP JSON mapping
 * asks.
 */
final class OtlpJson {

    private OtlpJson() {
    }

    static String request(String serviceName, String version, List<Span> spans) {
        JsonWriter w = new JsonWriter(512 + spans.size() * 512).beginObject().name("resourceSpans").beginArray().beginObject();
        w.name("resource").beginObject().name("attributes").beginArray();
        attribute(w, "service.name", serviceName);
        attribute(w, "service.version", version);
        attribute(w, "telemetry.sdk.name", "loomgate");
        attribute(w, "telemetry.sdk.language", "java");
        w.endArray().endObject();
        w.name("scopeSpans").beginArray().beginObject();
        w.name("scope").beginObject().field("name", "io.loomgate").field("version", version).endObject();
        w.name("spans").beginArray();
        for (Span s : spans) {
            span(w, s);
        }
        w.endArray().endObject().endArray();
        return w.endObject().endArray().endObject().toString();
    }

    private static void span(JsonWriter w, Span s) {
        w.beginObject().field("traceId", s.traceId()).field("spanId", s.spanId());
        if (!s.parentId().isEmpty()) {
            w.field("parentSpanId", s.parentId());
        }
        w.field("name", s.name()).field("kind", s.kind().otlp())
                .field("startTimeUnixNano", Long.toString(s.startEpochNanos()))
                .field("endTimeUnixNano", Long.toString(s.endEpochNanos()));
        w.name("attributes").beginArray();
        for (Map.Entry<String, Object> a : s.attributes().entrySet()) {
            attribute(w, a.getKey(), a.getValue());
        }
        w.endArray();
        w.name("status").beginObject();
        if (s.error()) {
            w.field("code", 2).field("message", s.message());
        } else {
            w.field("code", 0);
        }
        w.endObject().endObject();
    }

    private static void attribute(JsonWriter w, String key, Object value) {
        w.beginObject().field("key", key).name("value").beginObject();
        switch (value) {
            case Long n -> w.field("intValue", Long.toString(n));
            case Integer n -> w.field("intValue", Integer.toString(n));
            case Boolean b -> w.field("boolValue", b);
            default -> w.field("stringValue", String.valueOf(value));
        }
        w.endObject().endObject();
    }
}
