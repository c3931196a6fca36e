package io.loomgate.client;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A socket's output with the time its current write began (0: none), for the {@link
 * io.loomgate.net.IoWatchdog}: a write that has waited past the idle timeout means the peer stopped
 * reading, and the connection is closed (a socket write has no timeout of its own).
 *
 * <p>A write begun by an interrupted thread (a cancelled call resetting its stream) goes as if it
 * were not, the interrupt kept for after it: the socket is a {@link java.nio.channels.SocketChannel}'s,
 * and a channel closes when an interrupted thread so much as starts an operation on it, which would
 * end the connection every other stream on it shares.
 */
final class StallClock extends FilterOutputStream {

    private volatile long since;

    StallClock(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        boolean interrupted = Thread.interrupted();
        since = System.nanoTime();
        try {
            out.write(b, off, len);
        } finally {
            since = 0;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether the write under way began more than {@code limitNanos} before {@code now}. */
    boolean stalled(long now, long limitNanos) {
        long s = since;
        return s != 0 && now - s > limitNanos;
    }
}
