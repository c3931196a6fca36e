package io.loomgate.core.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * A structured scope that one connection's thread owns for the streams it carries (HTTP/2): each
 * stream runs as a subtask on a virtual thread of its own, forked by the connection's thread as the
 * stream opens, and no stream outlives its connection: {@link #close}, on the owner's thread as
 * the connection ends, interrupts every stream still running and waits for them. The preview API
 * stays in {@link StructuredScope}.
 *
 * <p>One subtask more than the streams, a keeper, lives as long as the scope. When a scope's last
 * subtask ends, the JDK unparks its owner (its {@code ThreadFlock} does, for a {@code join} that may
 * be waiting), and this owner is not in {@code join}: it is parked in a socket read. The read wakes,
 * retries, and the wake went onto the carrier's own queue, so with many connections the readers kept
 * each other running from those queues while the JDK's poller, woken from outside the pool, waited:
 * on one core under h2load, connections that did need the poller stalled for up to 1.5 s (see
 * docs/performance.md). With the keeper the count never reaches zero while the connection lives, and
 * only the poller wakes a read.
 */
public final class ConnectionScope implements AutoCloseable {

    private final StructuredScope.Owned scope;
    private final CountDownLatch closing = new CountDownLatch(1);

    private ConnectionScope(StructuredScope.Owned scope, String name) {
        this.scope = scope;
        scope.fork(() -> keep(name + "-keeper"));
    }

    /** The keeper's subtask: holds the scope's count of subtasks above zero until the scope closes. */
    private void keep(String name) {
        Thread.currentThread().setName(name);   // not a stream, in a thread dump
        try {
            closing.await();
        } catch (InterruptedException e) {
            // the scope is closing
        }
    }

    /**
     * Opens a scope owned by the calling thread.
     *
     * @param name    what thread dumps show for it
     * @param started counts each virtual thread it starts (each stream's, and the keeper's)
     */
    public static ConnectionScope open(String name, LongAdder started) {
        ThreadFactory threads = task -> {
            started.increment();
            return Thread.ofVirtual().name(name + "-stream").unstarted(task);
        };
        return new ConnectionScope(new StructuredScope.Owned(name, threads), name);
    }

    /** Runs {@code task} as a subtask on a thread of its own. */
    public void fork(Runnable task) {
        scope.fork(task);
    }

    /** Interrupts every task still running, waits for each to end, and closes the scope. */
    @Override
    public void close() {
        closing.countDown();
        scope.cancel();
        try {
            scope.join();   // returns at once: the scope is cancelled
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();   // close still waits for every task to end
        }
        scope.close();
    }
}
