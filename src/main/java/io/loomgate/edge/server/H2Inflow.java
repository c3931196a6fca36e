package io.loomgate.edge.server;

import io.loomgate.http2.FrameOutput;
import io.loomgate.http2.FlowWindow;
import io.loomgate.http2.Frame;
import io.loomgate.http2.Http2Exception;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receive side of an HTTP/2 connection's flow control (RFC 9113 section 5.2): the window this
 * side granted the client for the connection and for each stream, lowered by each DATA frame
 * ({@link #consume}: more than granted is a FLOW_CONTROL_ERROR) and raised again only as octets are
 * read by a handler or dropped ({@link #credit}), a quarter of the connection's window or half a
 * stream's at a time. So what a connection holds of request bodies is bounded by
 * {@link H2Connection#CONNECTION_WINDOW}, whatever its streams' handlers do.
 */
final class H2Inflow {

    private final ReentrantLock lock = new ReentrantLock();
    private final FrameOutput out;
    private final FlowWindow connection = new FlowWindow(0, H2Connection.CONNECTION_WINDOW);
    private final Map<Integer, FlowWindow> streams = new HashMap<>();
    private int connectionUnacked;

    H2Inflow(FrameOutput out) {
        this.out = out;
    }

    void open(int id) {
        lock.lock();
        try {
            streams.put(id, new FlowWindow(id, H2Connection.STREAM_WINDOW));
        } finally {
            lock.unlock();
        }
    }

    void forget(int id) {
        lock.lock();
        try {
            streams.remove(id);
        } finally {
            lock.unlock();
        }
    }

    /** A DATA frame of {@code flowLength} octets (padding included) on stream {@code id}. */
    void consume(int id, int flowLength) throws Http2Exception {
        lock.lock();
        try {
            connection.consume(flowLength);
            FlowWindow window = streams.get(id);
            if (window != null) {
                window.consume(flowLength);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code octets} of stream {@code id}'s DATA were read or dropped: the connection's window and,
     * while the client may still send on the stream ({@code streamEnded} false), the stream's reopen.
     */
    void credit(int id, int octets, boolean streamEnded) {
        int forConnection = 0;
        int forStream = 0;
        lock.lock();
        try {
            connectionUnacked += octets;
            if (connectionUnacked >= H2Connection.CONNECTION_WINDOW / 4) {
                forConnection = connectionUnacked;
                connectionUnacked = 0;
                connection.increase(forConnection);
            }
            FlowWindow window = id == 0 || streamEnded ? null : streams.get(id);
            if (window != null && H2Connection.STREAM_WINDOW - window.available() >= H2Connection.STREAM_WINDOW / 2) {
                forStream = (int) (H2Connection.STREAM_WINDOW - window.available());
                window.increase(forStream);
            }
        } catch (Http2Exception e) {
            return;   // cannot happen: only what was consumed is given back
        } finally {
            lock.unlock();
        }
        try {
            if (forConnection > 0) {
                out.frame(new Frame.WindowUpdate(0, forConnection));
            }
            if (forStream > 0) {
                out.frame(new Frame.WindowUpdate(id, forStream));
            }
        } catch (IOException e) {
            // the connection is ending; its reader will see it
        }
    }
}
