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
 *
 * <p>The tick and the read's end race: a read may return bytes just as the tick closes its
 * connection for having waited too long. One of them wins, atomically: the tick takes the read
 * ({@link #expired}) or the read ends first ({@link #done}), and a read the tick took counts as
 * timed out whatever it returned. Before, such a read could return a request's head from a socket
 * already closed, its exchange then ran with this clock timed out for good, and the connection's
 * watch for a hang-up read the closed socket in a loop that never parked, which on a 2-core machine
 * held both carriers and wedged the server (seen in the load harness, 2026-11-28).
 */
public final class ReadClock {

    /** No deadline for the reads together. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private static final long NOT_READING = Long.MIN_VALUE;
    /** The read in progress was taken by the tick: its connection is being closed for it. */
    private static final long TAKEN = Long.MIN_VALUE + 1;

    /** When the read in progress began waiting; {@link #NOT_READING} when none is. */
    private final AtomicLong since = new AtomicLong(NOT_READING);
    private volatile boolean timedOut;

    /** A read begins now. */
    public void reading() {
        since.set(System.nanoTime());
    }

    /**
     * The read ended, with bytes or a failure.
     *
     * @return false when the tick took it first ({@link #expired}): it timed out, whatever it returned
     */
    public boolean done() {
        return since.getAndSet(NOT_READING) != TAKEN;
    }

    /** The read in progress, if any, counts its wait from {@code nowNanos} instead: what held it back has ended. */
    public void restart(long nowNanos) {
        long s = since.get();
        if (s != NOT_READING && s != TAKEN) {
            since.compareAndSet(s, nowNanos);
        }
    }

    /**
     * For the watchdog's tick: whether a read is in progress and has waited past {@code waitNanos}
     * (0: no limit per read) or past {@code deadlineNanos} ({@link System#nanoTime()};
     * {@link #NO_DEADLINE}: none). When it has, and it has not ended meanwhile, the read is taken
     * and marked timed out: the caller then closes the connection, and the read fails, or, if it
     * returned bytes meanwhile, its {@link #done} says it was taken.
     */
    public boolean expired(long nowNanos, long waitNanos, long deadlineNanos) {
        long s = since.get();
        if (s == NOT_READING || s == TAKEN) {
            return false;
        }
        boolean late = (waitNanos > 0 && nowNanos - s >= waitNanos)
                || (deadlineNanos != NO_DEADLINE && nowNanos - deadlineNanos >= 0);
        if (!late || !since.compareAndSet(s, TAKEN)) {
            return false;
        }
        timedOut = true;
        return true;
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
