package io.loomgate.core.call;

import io.loomgate.http.Headers;

/**
 * The headers loomgate sends with every call to an HTTP upstream, whether it aggregates the answer
 * or proxies it: the request id, what is left of the deadline, a child span of the trace, and what
 * the route's authentication says about the caller ({@code X-Consumer: mobile-app}). A loomgate that
 * receives {@link #DEADLINE} caps its own deadline by it.
 */
public final class Propagation {

    public static final String REQUEST_ID = "X-Request-Id";
    /** Milliseconds the caller has left for this request, at least 1. */
    public static final String DEADLINE = "X-Loomgate-Deadline-Ms";
    public static final String TRACEPARENT = "traceparent";

    private Propagation() {
    }

    /** The headers for one call of the current request, made now (the deadline counts down). */
    public static Headers.Builder headers(RequestContext ctx) {
        return headers(ctx, ctx.trace().get().child());
    }

    /** The same, sending {@code sent} as the trace context: the span of this exchange. */
    public static Headers.Builder headers(RequestContext ctx, TraceParent sent) {
        return Headers.builder()
                .add(REQUEST_ID, ctx.requestId())
                .add(DEADLINE, String.valueOf(Math.max(1, ctx.remaining().toMillis())))
                .add(TRACEPARENT, sent.header())
                .addAll(ctx.caller().upstream());
    }

    /** True for a client header an upstream may see: not one set here, nor a credential loomgate consumed. */
    public static boolean passesOn(RequestContext ctx, String lowerName) {
        return !isPropagated(lowerName) && ctx.caller().passesOn(lowerName);
    }

    /** True for a header {@link #headers} sets, which a client's own value must not override. */
    public static boolean isPropagated(String lowerName) {
        return lowerName.equals("x-request-id") || lowerName.equals("x-loomgate-deadline-ms") || lowerName.equals("traceparent");
    }
}
