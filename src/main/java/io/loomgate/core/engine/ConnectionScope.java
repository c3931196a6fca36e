package io.loomgate.core.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * A structured scope that one connection's thread owns for the streams it carries (HTTP/2): each
 * stream runs as a subtask on a virtual thread of its own, forked by the connection's thread as the
 * stream opens, and no stream outlives its connection: {@link #close}, on the owner's thread as
 * the connection ends, interrupts every stream still running and waits for them. The preview API
 * stays in {@link StructuredScope}.
 */
public final class ConnectionScope implements AutoCloseable {

    private final StructuredScope.Owned scope;

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

    /** Runs {@code task} as a subtask on a thread of its own. */
    public void fork(Runnable task) {
        scope.fork(task);
    }

    /** Interrupts every task still running, waits for each to end, and closes the scope. */
    @Override
    public void close() {
        scope.cancel();
        try {
            scope.join();   // returns at once: the scope is cancelled
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();   // close still waits for every task to end
        }
        scope.close();
    }
}
