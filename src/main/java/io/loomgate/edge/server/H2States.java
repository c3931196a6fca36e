package io.loomgate.edge.server;

import io.loomgate.http2.Http2Exception;
import io.loomgate.http2.ServerStreams;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An HTTP/2 connection's stream states ({@link ServerStreams}) behind one lock: the connection's
 * reader moves them as frames arrive, and the streams' own threads as their answers end or are reset.
 */
final class H2States {

    private final ReentrantLock lock = new ReentrantLock();
    private final ServerStreams streams;

    H2States(ServerStreams streams) {
        this.streams = streams;
    }

    private interface Step<T> {
        T run() throws Http2Exception;
    }

    private <T> T locked(Step<T> step) throws Http2Exception {
        lock.lock();
        try {
            return step.run();
        } finally {
            lock.unlock();
        }
    }

    /** Whether stream {@code id} is open in any state (a header block on it is its trailers). */
    boolean isOpen(int id) {
        lock.lock();
        try {
            return streams.state(id) != null;
        } finally {
            lock.unlock();
        }
    }

    /** {@link ServerStreams#headers}. */
    void headers(int id, boolean endStream) throws Http2Exception {
        locked(() -> {
            streams.headers(id, endStream);
            return null;
        });
    }

    /** {@link ServerStreams#data}. */
    void data(int id, boolean endStream) throws Http2Exception {
        locked(() -> {
            streams.data(id, endStream);
            return null;
        });
    }

    /** {@link ServerStreams#windowUpdate}. */
    void windowUpdate(int id) throws Http2Exception {
        locked(() -> {
            streams.windowUpdate(id);
            return null;
        });
    }

    /** {@link ServerStreams#reset}. */
    boolean reset(int id) throws Http2Exception {
        return locked(() -> streams.reset(id, System.nanoTime()));
    }

    void endLocal(int id) {
        lock.lock();
        try {
            streams.endLocal(id);
        } finally {
            lock.unlock();
        }
    }

    void resetLocal(int id) {
        lock.lock();
        try {
            streams.resetLocal(id);
        } finally {
            lock.unlock();
        }
    }

    int lastOpened() {
        lock.lock();
        try {
            return streams.lastOpened();
        } finally {
            lock.unlock();
        }
    }
}
