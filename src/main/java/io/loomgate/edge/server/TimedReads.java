package io.loomgate.edge.server;

import io.loomgate.net.ReadClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * How a connection's reads wait: each at most a per-read time (the idle timeout between requests),
 * and all of them together until a deadline (the read timeout for a handshake and a head). The
 * reads themselves wait untimed; the connection's watchdog tick asks {@link #expired} and closes
 * the connection of one that waited too long ({@link ReadClock} says why). The watch's read
 * ({@link ClientWatch}) is {@link #hold held}: its wait counts from the end of the exchange it
 * watches, not from its start, since a request may run for longer than the idle timeout.
 */
final class TimedReads {

    /** No deadline for the reads together: only the per-read time. */
    static final long NO_DEADLINE = ReadClock.NO_DEADLINE;
    private static final String WAITED_TOO_LONG = "the read waited past its timeout";

    private final ReadClock clock = new ReadClock();
    private volatile long deadlineNanos = NO_DEADLINE;
    private volatile long perReadNanos;
    private volatile boolean held;

    /** Reads wait until {@code deadline} ({@link System#nanoTime()}) in all, and at most {@code perRead} each. */
    void set(long deadline, Duration perRead) {
        this.deadlineNanos = deadline;
        this.perReadNanos = perRead.toNanos();
    }

    long deadline() {
        return deadlineNanos;
    }

    /** One read of {@code in}, the connection's stream, within what is left of the deadline and the per-read time. */
    int read(InputStream in, byte[] b, int off, int len) throws IOException {
        if (deadlineNanos != NO_DEADLINE && deadlineNanos - System.nanoTime() <= 0) {
            throw new SocketTimeoutException("the read timeout passed");
        }
        clock.reading();
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            clock.done();
            throw clock.failure(e, WAITED_TOO_LONG);
        }
        if (!clock.done()) {   // bytes that came as the tick closed the connection: too late to serve
            throw new SocketTimeoutException(WAITED_TOO_LONG);
        }
        return n;
    }

    /** For the watchdog's tick: the read in progress has waited too long (the connection is to close). */
    boolean expired(long nowNanos) {
        return !held && clock.expired(nowNanos, perReadNanos, deadlineNanos);
    }

    /** The watch's read begins: it does not time out while the exchange it watches runs. */
    void hold() {
        held = true;
    }

    /** The watched exchange ended (or the watch did): a read in progress waits its per-read time from now. */
    void release(long nowNanos) {
        if (held) {
            held = false;
            clock.restart(nowNanos);
        }
    }
}
