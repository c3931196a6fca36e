package io.loomgate.edge.server;

import java.util.concurrent.Executor;

/**
 * An executor that loomgate's server may ask to run an exchange on the thread that read its head
 * (the connection's own virtual thread) instead of on a thread of its own: no handoff, so no second
 * thread started, parked and woken for each request. Whatever bookkeeping {@link #execute} does for
 * an exchange (counting it, tracking its thread for shutdown) {@link #runHere} does too. The JDK's
 * server only ever calls {@link #execute}.
 */
public interface InlineExecutor extends Executor {

    /**
     * Runs {@code exchange} on the calling thread and returns when it has ended.
     *
     * @param arrivalNanos when the exchange's first byte came ({@link System#nanoTime()})
     */
    void runHere(Runnable exchange, long arrivalNanos);
}
