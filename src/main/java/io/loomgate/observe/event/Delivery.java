package io.loomgate.observe.event;

import io.loomgate.http.StopReason;

/**
 * How a request's answer went out, decided once, when it was written: whole, not delivered because
 * the client went away, or cut off because the upstream's body failed after the head was sent. The
 * pipeline decides it; the access log, the trace and the metrics read it from the request's
 * {@link RequestSummary}.
 */
public enum Delivery {

    WHOLE(""),
    CLIENT_GONE(StopReason.CLIENT_GONE.wire()),
    CUT_OFF("upstream_cut_off");

    private final String failure;

    Delivery(String failure) {
        this.failure = failure;
    }

    public boolean whole() {
        return this == WHOLE;
    }

    /** {@code client_gone} or {@code upstream_cut_off}, as the access log and the trace name it; empty when whole. */
    public String failure() {
        return failure;
    }
}
