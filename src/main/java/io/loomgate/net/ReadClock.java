package io.loomgate.net;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Timeouts for a connection's blocking reads without socket timeouts. A read with
 * {@code SO_TIMEOUT} on a virtual thread is a timed park: the JDK arms a timer for it on the
 * scheduler's delay thread and cancels it when the read returns, two hand-offs to another thread
 * for every read that waits. On one core that was half of what a proxied request cost (77 against
 * 40 µs; docs/performance.md). So reads here wait untimed, and the {@link IoWatchdog}, which
 * ticks every 100 ms anyway, asks {@link #expired} and closes the connection of a read that has
 * waited too long; the read then fails, and {@link #failure} gives the {@link SocketTimeoutException}
 * a timed read would have thrown. A timeout fires up to a tick late.
 */
public final class ReadClock {

    /** No deadline for the reads together. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private static final long NOT_READING = Long.MIN_VALUE;

    /** When the read in progress began waiting; {@link #NOT_READING} when none is. */
    private final AtomicLong since = new AtomicLong(NOT_READING);
    private volatile boolean timedOut;

    /** A read begins now. */
    public void reading() {
        since.set(System.nanoTime());
    }

    /** The read ended, with bytes or a failure. */
    public void done() {
        since.set(NOT_READING);
    }

    /** The read in progress, if any, counts its wait from {@code nowNanos} instead: what held it back has ended. */
    public void restart(long nowNanos) {
        long s = since.get();
        if (s != NOT_READING) {
            since.compareAndSet(s, nowNanos);
        }
    }

    /**
     * For the watchdog's tick: whether a read is in progress and has waited past {@code waitNanos}
     * (0: no limit per read) or past {@code deadlineNanos} ({@link System#nanoTime()};
     * {@link #NO_DEADLINE}: none). When it has, the read is marked timed out: the caller then
     * closes the connection, and the read fails.
     */
    public boolean expired(long nowNanos, long waitNanos, long deadlineNanos) {
        long s = since.get();
        if (s == NOT_READING) {
            return false;
        }
        boolean late = (waitNanos > 0 && nowNanos - s >= waitNanos)
                || (deadlineNanos != NO_DEADLINE && nowNanos - deadlineNanos >= 0);
        if (late) {
            timedOut = true;
        }
        return late;
    }

    /** Whether a read was timed out (and its connection closed for it). */
    public boolean timedOut() {
        return timedOut;
    }

    /** What a failed read throws: a {@link SocketTimeoutException} saying {@code why} if it was timed out, else {@code e}. */
    public IOException failure(IOException e, String why) {
        if (!timedOut) {
            return e;
        }
        SocketTimeoutException timeout = new SocketTimeoutException(why);
        timeout.addSuppressed(e);
        return timeout;
    }
}
