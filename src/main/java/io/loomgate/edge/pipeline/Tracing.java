package io.loomgate.edge.pipeline;

import io.loomgate.trace.Span;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How requests are traced ({@code --otlp-endpoint}, {@code --trace-sample}): the share of new traces
 * sampled (a request that brings a {@code traceparent} follows its parent's decision), and where
 * finished spans go.
 */
public record Tracing(double sampleRatio, Consumer<Span> sink) {

    public Tracing {
        if (!(sampleRatio >= 0 && sampleRatio <= 1)) {
            throw new IllegalArgumentException("sampleRatio must be in 0..1: " + sampleRatio);
        }
        Objects.requireNonNull(sink, "sink");
    }
}
