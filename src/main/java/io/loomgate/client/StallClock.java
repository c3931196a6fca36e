package io.loomgate.client;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A socket's output with the time its current write began (0: none), for the {@link
 * io.loomgate.net.IoWatchdog}: a write that has waited past the idle timeout means the peer stopped
 * reading, and the connection is closed (a socket write has no timeout of its own).
 */
final class StallClock extends FilterOutputStream {

    private volatile long since;

    StallClock(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        since = System.nanoTime();
        try {
            out.write(b, off, len);
        } finally {
            since = 0;
        }
    }

    /** Whether the write under way began more than {@code limitNanos} before {@code now}. */
    boolean stalled(long now, long limitNanos) {
        long s = since;
        return s != 0 && now - s > limitNanos;
    }
}
