package io.loomgate.upstream.http;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Socket writes have no timeout in Java: an upstream that stops reading a request body would block
 * its writer for good. One daemon thread per client looks, a few times a second, at the
 * connections that are sending, and closes any whose current write has made no progress for its
 * idle timeout; the blocked write then fails at once, on a virtual thread or a platform one.
 */
final class WriteWatchdog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration TICK = Duration.ofMillis(100);

    private final Set<Http1Connection> sending = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    WriteWatchdog() {
        this.thread = Thread.ofPlatform().daemon().name("loomgate-write-watchdog").start(this::run);
    }

    void watch(Http1Connection c) {
        sending.add(c);
    }

    void unwatch(Http1Connection c) {
        sending.remove(c);
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(TICK);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Http1Connection c : sending) {
                if (c.closeIfWriteStalled(now)) {
                    sending.remove(c);
                    LOG.log(Level.DEBUG, () -> "closed a connection to " + c.key + ": a write made no progress for its idle timeout");
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
