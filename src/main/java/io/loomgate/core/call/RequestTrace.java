package io.loomgate.core.call;

import io.loomgate.http.RequestLedger;
import io.loomgate.trace.TraceRoot;

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

    /** The request's trace root when its spans are recorded (traced and sampled); empty otherwise. */
    public java.util.Optional<TraceRoot> recording() {
        TraceRoot root = ledger.root();
        return root != null && root.sampled() ? java.util.Optional.of(root) : java.util.Optional.empty();
    }

    public TraceParent get() {
        TraceParent t = trace;
        if (t == null) {
            synchronized (this) {
                t = trace;
                if (t == null) {
                    TraceRoot root = ledger.root();
                    t = root == null ? TraceParent.fromHeader(header) : TraceParent.of(root.traceId(), root.spanId(), root.flags());
                    trace = t;
                    ledger.traceId(t.traceId());
                }
            }
        }
        return t;
    }
}
