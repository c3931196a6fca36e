package io.loomgate.server;

/**
 * Where the server is in its life. Requests read it to decide whether to serve or refuse;
 * {@code /health} reports it.
 */
public final class Lifecycle {

    /** The states, in the only order they happen. */
    public enum State { RUNNING, DRAINING, STOPPED }

    private final long startedNanos = System.nanoTime();
    private volatile State state = State.RUNNING;

    public State state() {
        return state;
    }

    /** True once shutdown has begun: new work is refused, in-flight work finishes. */
    public boolean isDraining() {
        return state != State.RUNNING;
    }

    public long uptimeMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** Moves to {@code next}; returns false if the server was already there or beyond. */
    synchronized boolean advance(State next) {
        if (next.ordinal() <= state.ordinal()) {
            return false;
        }
        state = next;
        return true;
    }
}
