package io.loomgate.edge.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How a connection's reads wait: each at most a per-read time (the idle timeout between requests),
 * and all of them together until a deadline (the read timeout for a handshake and a head).
 */
final class TimedReads {

    /** No deadline for the reads together: only the per-read time. */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    private long deadlineNanos = NO_DEADLINE;
    private long perReadNanos;

    /** Reads wait until {@code deadline} ({@link System#nanoTime()}) in all, and at most {@code perRead} each. */
    void set(long deadline, Duration perRead) {
        this.deadlineNanos = deadline;
        this.perReadNanos = perRead.toNanos();
    }

    long deadline() {
        return deadlineNanos;
    }

    /** One read of {@code in}, {@code socket}'s stream, within what is left of the deadline and the per-read time. */
    int read(Socket socket, InputStream in, byte[] b, int off, int len) throws IOException {
        long wait = perReadNanos;
        if (deadlineNanos != NO_DEADLINE) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("the read timeout passed");
            }
            wait = Math.min(wait, left);
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(wait))));
        return in.read(b, off, len);
    }
}
