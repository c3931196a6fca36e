package io.loomgate.net;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Socket writes have no timeout in Java: a peer that stops reading would block its writer for good.
 * One daemon thread per client or server looks, a few times a second, at the connections that are
 * writing, and closes any whose current write has made no progress for its idle timeout; the
 * blocked write then fails at once, on a virtual thread or a platform one.
 */
public final class WriteWatchdog implements AutoCloseable {

    /** A connection the watchdog can look at. */
    public interface Watched {
        /** True, and the connection closed, when its current write has waited longer than its idle timeout. */
        boolean closeIfWriteStalled(long nowNanos);

        /** Who it talks to, for the log. */
        String peer();
    }

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration TICK = Duration.ofMillis(100);

    private final Set<Watched> writing = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    public WriteWatchdog() {
        this.thread = Thread.ofPlatform().daemon().name("loomgate-write-watchdog").start(this::run);
    }

    public void watch(Watched c) {
        writing.add(c);
    }

    public void unwatch(Watched c) {
        writing.remove(c);
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(TICK);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Watched c : writing) {
                if (c.closeIfWriteStalled(now)) {
                    writing.remove(c);
                    LOG.log(Level.DEBUG, () -> "closed a connection to " + c.peer() + ": a write made no progress for its idle timeout");
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
