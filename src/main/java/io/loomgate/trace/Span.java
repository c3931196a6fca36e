package io.loomgate.trace;

import java.util.Map;
import java.util.Objects;

/**
 * One finished span, as the OpenTelemetry data model has it: a piece of one request's work with its
 * place in the trace, its times, its attributes and whether it failed. Times are Unix epoch
 * nanoseconds ({@link Clock}).
 *
 * @param parentId   the parent span's id; empty for a trace's root
 * @param attributes names from the OpenTelemetry semantic conventions; values are String, Long or Boolean
 * @param error      true when the work failed (status ERROR); {@code message} then says why
 */
public record Span(String traceId, String spanId, String parentId, String name, Kind kind, long startEpochNanos,
                   long endEpochNanos, Map<String, Object> attributes, boolean error, String message) {

    /** Who did the work: the server part of a request, a call out of it, or something inside. */
    public enum Kind {
        INTERNAL(1), SERVER(2), CLIENT(3);

        private final int otlp;

        Kind(int otlp) {
            this.otlp = otlp;
        }

        /** Its number in OTLP ({@code SPAN_KIND_SERVER} is 2). */
        public int otlp() {
            return otlp;
        }
    }

    public Span {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(parentId, "parentId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        attributes = Map.copyOf(attributes);
        Objects.requireNonNull(message, "message");
    }
}
