package io.loomgate.core.call;

import io.loomgate.trace.Clock;
import io.loomgate.trace.Span;
import io.loomgate.trace.TraceRoot;
import java.util.Map;

/**
 * The spans of a request's calls: one per call (however many tries or hedges it took, as the
 * outermost layer sees it), its tries beneath it as client spans ({@link #parent}). The call's span
 * id is bound to the thread that makes it while it runs, where its tries find it.
 */
public final class CallSpans {

    /** The span id of the call running on this thread, for the spans of its tries. */
    public static final ScopedValue<String> CURRENT = ScopedValue.newInstance();

    private CallSpans() {
    }

    /** The parent of a try's span: its call's span, or the request's server span outside any call. */
    public static String parent(TraceRoot root) {
        return CURRENT.isBound() ? CURRENT.get() : root.spanId();
    }

    /**
     * A call's span, from {@code startNanos} to {@code endNanos} ({@link System#nanoTime()}), named
     * after its upstream; a failed or cancelled call is an error, with why.
     */
    public static Span call(TraceRoot root, String spanId, UpstreamId upstream, String requestId, long startNanos,
                            long endNanos, Outcome outcome) {
        boolean failed = !(outcome instanceof Outcome.Success);
        String message = switch (outcome) {
            case Outcome.Failed f -> f.reason();
            case Outcome.Success s -> "";
            default -> outcome.state();
        };
        return new Span(root.traceId(), spanId, root.spanId(), "call " + upstream.value(), Span.Kind.INTERNAL,
                Clock.epochNanos(startNanos), Clock.epochNanos(endNanos),
                Map.of("loomgate.upstream", upstream.value(), "loomgate.outcome", outcome.state(), "loomgate.request_id", requestId),
                failed, message);
    }
}
