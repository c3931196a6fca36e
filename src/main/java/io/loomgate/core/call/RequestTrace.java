package io.loomgate.core.call;

/**
 * A request's trace context, worked out on first use: the client's {@code traceparent}, or a new
 * trace. Most requests never need one (only HTTP upstreams send it), so none is made until then;
 * once made, every call of the request shares it.
 */
public final class RequestTrace {

    private final String header;
    private volatile TraceParent trace;

    /** @param header the client's {@code traceparent}, or null */
    public RequestTrace(String header) {
        this.header = header;
    }

    public TraceParent get() {
        TraceParent t = trace;
        if (t == null) {
            synchronized (this) {
                t = trace;
                if (t == null) {
                    t = TraceParent.fromHeader(header);
                    trace = t;
                }
            }
        }
        return t;
    }
}
