package io.loomgate.client;

import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FrameOutput;
import io.loomgate.http2.Http2Exception;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receive windows of an HTTP/2 connection to an upstream, the connection's and each stream's:
 * DATA past either is a {@code FLOW_CONTROL_ERROR}, and octets go back to the upstream (as
 * WINDOW_UPDATEs, once a quarter of a window is owed) only as the proxy reads them, so a slow client
 * slows the upstream instead of filling memory: at most a stream's window is held for it.
 */
final class H2Receiving {

    private final FrameOutput out;
    private final int streamWindow;
    private final int connectionWindow;
    private final ReentrantLock lock = new ReentrantLock();
    private long connectionLeft;
    private long connectionOwed;
    /** Each open stream's {window left, octets owed}. */
    private final Map<Integer, long[]> streams = new HashMap<>();

    H2Receiving(FrameOutput out, int streamWindow, int connectionWindow) {
        this.out = out;
        this.streamWindow = streamWindow;
        this.connectionWindow = connectionWindow;
        this.connectionLeft = connectionWindow;
    }

    void open(int id) {
        lock.lock();
        try {
            streams.put(id, new long[] {streamWindow, 0});
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

    /** DATA that counted {@code flowLength} (padding included) on stream {@code id}; padding, and DATA nobody reads, go back at once. */
    void received(int id, int flowLength, int padding) throws Http2Exception {
        boolean read;
        lock.lock();
        try {
            connectionLeft -= flowLength;
            if (connectionLeft < 0) {
                throw Http2Exception.connection(ErrorCode.FLOW_CONTROL_ERROR, "DATA past the connection's receive window");
            }
            long[] s = streams.get(id);
            read = s != null;
            if (read) {
                s[0] -= flowLength;
                if (s[0] < 0) {
                    throw Http2Exception.stream(ErrorCode.FLOW_CONTROL_ERROR, id, "DATA past stream " + id + "'s receive window");
                }
            }
        } finally {
            lock.unlock();
        }
        if (!read) {
            credit(id, flowLength, true);
        } else if (padding > 0) {
            credit(id, padding, false);
        }
    }

    /** {@code octets} of stream {@code id} were read or dropped: the upstream may send that many more. */
    void credit(int id, int octets, boolean streamEnded) {
        Frame.WindowUpdate connection = null;
        Frame.WindowUpdate stream = null;
        lock.lock();
        try {
            connectionOwed += octets;
            if (connectionOwed >= connectionWindow / 4) {
                connection = new Frame.WindowUpdate(0, (int) connectionOwed);
                connectionLeft += connectionOwed;
                connectionOwed = 0;
            }
            long[] s = streams.get(id);
            if (s != null && !streamEnded) {
                s[1] += octets;
                if (s[1] >= streamWindow / 4) {
                    stream = new Frame.WindowUpdate(id, (int) s[1]);
                    s[0] += s[1];
                    s[1] = 0;
                }
            }
        } finally {
            lock.unlock();
        }
        try {
            if (connection != null) {
                out.frame(connection);
            }
            if (stream != null) {
                out.frame(stream);
            }
        } catch (IOException e) {
            // the connection is ending; its reader fails every stream
        }
    }
}
