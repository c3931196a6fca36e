package io.loomgate.edge.listener;

import io.loomgate.edge.pipeline.Draining;

/**
 * Where the server is in its life. Requests read it to decide whether to serve or refuse;
 * {@code /health} and {@code /readyz} report it. A server is STARTING until its main listener
 * serves (an admin listener may already answer), RUNNING until shutdown begins, then DRAINING, then
 * STOPPED.
 */
public final class Lifecycle implements Draining {

    /** The states, in the only order they happen. */
    public enum State { STARTING, RUNNING, DRAINING, STOPPED }

    private final long startedNanos = System.nanoTime();
    private volatile State state = State.STARTING;
    private volatile long drainingSince = Long.MAX_VALUE;

    public State state() {
        return state;
    }

    /** True once shutdown has begun: new work is refused, in-flight work finishes. */
    @Override
    public boolean isDraining() {
        return state.compareTo(State.DRAINING) >= 0;
    }


    /**
     * True for a request whose first byte came after the server began refusing new work (shutdown,
     * after the drain delay): a new request, to refuse. One that arrived earlier is in flight, even
     * if it waited for a pool thread, and is served.
     */
    @Override
    public boolean isNew(long arrivalNanos) {
        return arrivalNanos - drainingSince >= 0;
    }

    public long uptimeMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /**
     * Moves to {@code next}, unless the server is already there or beyond. DRAINING makes the server
     * not ready; it still serves new requests until {@link #refuseNewRequests()}.
     */
    synchronized void advance(State next) {
        if (next.ordinal() > state.ordinal()) {
            state = next;
        }
    }

    /** From now on, a request whose first byte arrives is new work, refused with 503. Once only. */
    synchronized void refuseNewRequests() {
        if (drainingSince == Long.MAX_VALUE) {
            drainingSince = System.nanoTime();
        }
    }

    /** Serves on, not ready, for {@code delay} (the drain delay); says how long it did (less if interrupted). */
    static java.time.Duration keepServing(java.time.Duration delay) {
        if (delay.isZero()) {
            return java.time.Duration.ZERO;   // none asked for: none taken, whatever the machine's load
        }
        long start = System.nanoTime();
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return java.time.Duration.ofNanos(System.nanoTime() - start);
    }
}
