package io.loomgate.core.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * A structured scope that one connection's thread owns for the streams it carries (HTTP/2): each
 * stream runs as a subtask on a virtual thread of its own, forked by the connection's thread as the
 * stream opens, and no stream outlives its connection. {@link #cancel} interrupts every stream still
 * running (the connection failed or was closed); {@link #awaitAll} waits for them to end (a
 * graceful {@code GOAWAY}). Either way {@link #close} follows, on the owner's thread. The
 * preview API stays in {@link StructuredScope}.
 */
public final class ConnectionScope implements AutoCloseable {

    private final StructuredScope.Owned scope;
    private boolean joined;

    private ConnectionScope(StructuredScope.Owned scope) {
        this.scope = scope;
    }

    /**
     * Opens a scope owned by the calling thread.
     *
     * @param name    what thread dumps show for it
     * @param started counts each virtual thread it starts
     */
    public static ConnectionScope open(String name, LongAdder started) {
        ThreadFactory threads = task -> {
            started.increment();
            return Thread.ofVirtual().name(name + "-stream").unstarted(task);
        };
        return new ConnectionScope(new StructuredScope.Owned(name, threads));
    }

    /** Runs {@code task} as a subtask on a thread of its own; after {@link #cancel} it does not run. */
    public void fork(Runnable task) {
        scope.fork(task);
    }

    /** Interrupts every task still running, and starts no other. */
    public void cancel() {
        if (!joined) {
            scope.cancel();
        }
    }

    /** Waits for every task forked to end; once only, and no fork after it. Interrupted, {@link #close} cancels the rest. */
    public void awaitAll() throws InterruptedException {
        joined = true;
        scope.join();
    }

    /** Cancels what still runs unless {@link #awaitAll} saw it end, waits for it, and closes the scope. */
    @Override
    public void close() {
        if (!joined) {
            joined = true;
            scope.cancel();
            try {
                scope.join();   // returns at once: the scope is cancelled
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();   // close still waits for every task to end
            }
        }
        scope.close();
    }
}
