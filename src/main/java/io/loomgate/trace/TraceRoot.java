package io.loomgate.trace;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A request's place in a trace, decided when it arrives: the trace it belongs to (the client's, or
 * a new one), the id of its server span, the client's span (its parent), the W3C flags it passes on,
 * and, when it is sampled, where its spans go. Every call the request makes is a child of it.
 *
 * @param parentId the client's span id, or empty when the trace starts here
 * @param sampled  whether its spans are recorded (and the flag it passes on)
 * @param sink     where its finished spans go (the exporter's queue)
 */
public record TraceRoot(String traceId, String spanId, String parentId, boolean sampled, Consumer<Span> sink) {

    public TraceRoot {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(parentId, "parentId");
        Objects.requireNonNull(sink, "sink");
    }

    /** The W3C flags: {@code 01} when sampled. */
    public String flags() {
        return sampled ? "01" : "00";
    }

    /** Records {@code span} when this trace is sampled. */
    public void record(Span span) {
        if (sampled) {
            sink.accept(span);
        }
    }
}
