package io.loomgate.net;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Socket writes have no timeout in Java: a peer that stops reading would block its writer for good.
 * And a read with a timeout costs a virtual thread a timer on another thread ({@link ReadClock}).
 * One daemon thread per client or server looks, a few times a second, at its connections: it
 * closes any whose current write has made no progress for its idle timeout (the blocked write
 * then fails at once, on a virtual thread or a platform one), and gives each the tick
 * ({@link Watched#tick}) in which it times its reads.
 */
public final class IoWatchdog implements AutoCloseable {

    /** A connection the watchdog can look at. */
    public interface Watched {
        /** True, and the connection closed, when its current write has waited longer than its idle timeout. */
        boolean closeIfWriteStalled(long nowNanos);

        /** Each tick while it is watched and open, after the write check: what else it does a few times a second. */
        default void tick(long nowNanos) {
        }

        /** Who it talks to, for the log. */
        String peer();
    }

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration TICK = Duration.ofMillis(100);

    private final Set<Watched> connections = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;
    private volatile long passes;

    public IoWatchdog() {
        this.thread = Thread.ofPlatform().daemon().name("loomgate-io-watchdog").start(this::run);
    }

    public void watch(Watched c) {
        connections.add(c);
    }

    public void unwatch(Watched c) {
        connections.remove(c);
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(TICK);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Watched c : connections) {
                try {
                    if (c.closeIfWriteStalled(now)) {
                        connections.remove(c);
                        LOG.log(Level.DEBUG, () -> "closed a connection to " + c.peer() + ": a write made no progress for its idle timeout");
                    } else {
                        c.tick(now);
                    }
                } catch (RuntimeException | OutOfMemoryError e) {   // one connection's trouble must not stop the others' timeouts
                    LOG.log(Level.WARNING, () -> "the watchdog's look at " + c.peer() + " failed: " + e);
                }
            }
            passes++;
        }
    }

    /** How many times it has looked at every connection: a tick each, after the first's wait. */
    public long passes() {
        return passes;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
