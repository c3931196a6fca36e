package io.loomgate.core.call;

import io.loomgate.http.RequestLedger;

/**
 * A request's trace context, worked out on first use: the client's {@code traceparent}, or a new
 * trace. Most requests never need one (only HTTP upstreams send it), so none is made until then;
 * once made, every call of the request shares it.
 */
public final class RequestTrace {

    private final String header;
    private final RequestLedger ledger;
    private volatile TraceParent trace;

    /** @param header the client's {@code traceparent}, or null */
    public RequestTrace(String header) {
        this(header, new RequestLedger());
    }

    /** Also writes the trace id in {@code ledger} once there is one, for the access log. */
    public RequestTrace(String header, RequestLedger ledger) {
        this.header = header;
        this.ledger = ledger;
    }

    public TraceParent get() {
        TraceParent t = trace;
        if (t == null) {
            synchronized (this) {
                t = trace;
                if (t == null) {
                    t = TraceParent.fromHeader(header);
                    trace = t;
                    ledger.traceId(t.traceId());
                }
            }
        }
        return t;
    }
}
