package io.loomgate.http2;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receive side of an HTTP/2 connection's flow control (RFC 9113 section 5.2), a server's or a
 * client's: the window this side granted the peer for the connection and for each stream, lowered
 * by each DATA frame ({@link #consume}: more than granted is a FLOW_CONTROL_ERROR) and raised again
 * only as octets are read or dropped ({@link #credit}), a quarter of the connection's window or half
 * a stream's at a time. So what a connection holds of bodies is bounded by its connection window,
 * whatever its readers do.
 */
public final class ReceiveWindows {

    private final ReentrantLock lock = new ReentrantLock();
    private final FrameOutput out;
    private final int streamWindow;
    private final int connectionWindow;
    private final FlowWindow connection;
    private final Map<Integer, FlowWindow> streams = new HashMap<>();
    private int connectionUnacked;

    /** Windows of {@code streamWindow} octets for each stream and {@code connectionWindow} for the connection, as this side's SETTINGS and first WINDOW_UPDATE granted. */
    public ReceiveWindows(FrameOutput out, int streamWindow, int connectionWindow) {
        this.out = out;
        this.streamWindow = streamWindow;
        this.connectionWindow = connectionWindow;
        this.connection = new FlowWindow(0, connectionWindow);
    }

    public void open(int id) {
        lock.lock();
        try {
            streams.put(id, new FlowWindow(id, streamWindow));
        } finally {
            lock.unlock();
        }
    }

    public void forget(int id) {
        lock.lock();
        try {
            streams.remove(id);
        } finally {
            lock.unlock();
        }
    }

    /** A DATA frame of {@code flowLength} octets (padding included) on stream {@code id}. */
    public void consume(int id, int flowLength) throws Http2Exception {
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
     * while the peer may still send on the stream ({@code streamEnded} false), the stream's reopen.
     */
    public void credit(int id, int octets, boolean streamEnded) {
        int forConnection = 0;
        int forStream = 0;
        lock.lock();
        try {
            connectionUnacked += octets;
            if (connectionUnacked >= connectionWindow / 4) {
                forConnection = connectionUnacked;
                connectionUnacked = 0;
                connection.increase(forConnection);
            }
            FlowWindow window = id == 0 || streamEnded ? null : streams.get(id);
            if (window != null && streamWindow - window.available() >= streamWindow / 2) {
                forStream = (int) (streamWindow - window.available());
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
