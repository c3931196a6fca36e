package io.loomgate.http2;

/**
 * One flow-control window (RFC 9113 section 6.9), a stream's or the connection's, as one side
 * counts it: what may still be sent. A WINDOW_UPDATE raises it, DATA lowers it, and a change of
 * SETTINGS_INITIAL_WINDOW_SIZE moves a stream's by the difference, which may leave it below zero.
 * Past 2^31 - 1, or data beyond it, is a FLOW_CONTROL_ERROR: the stream's, or on stream 0 the
 * connection's. Not thread-safe: its connection guards it.
 */
public final class FlowWindow {

    static final long MAX = Integer.MAX_VALUE;

    private final int streamId;
    private long available;

    public FlowWindow(int streamId, long initial) {
        this.streamId = streamId;
        this.available = initial;
    }

    public long available() {
        return available;
    }

    /** A WINDOW_UPDATE for this window. */
    public void increase(int increment) throws Http2Exception {
        if (available + increment > MAX) {
            throw error("a WINDOW_UPDATE of " + increment + " takes the window past 2^31 - 1");
        }
        available += increment;
    }

    /** SETTINGS_INITIAL_WINDOW_SIZE changed by {@code delta}: a stream's window moves with it (RFC 9113 section 6.9.2). */
    public void adjust(long delta) throws Http2Exception {
        if (available + delta > MAX) {
            throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR,
                    "a new SETTINGS_INITIAL_WINDOW_SIZE takes stream " + streamId + "'s window past 2^31 - 1");
        }
        available += delta;
    }

    /** {@code length} octets of DATA (padding included) arrived, or are to be sent: more than the window allows is an error. */
    public void consume(int length) throws Http2Exception {
        if (length > available) {
            throw error(length + " octets of DATA with a window of " + available);
        }
        available -= length;
    }

    private Http2Exception error(String why) {
        return streamId == 0 ? Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, why)
                : Http2Exception.stream(ErrorCode.FLOW_CONTROL_ERROR, streamId, why);
    }
}
