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
    private volatile long drainingSince = Long.MAX_VALUE;

    public State state() {
        return state;
    }

    /** True once shutdown has begun: new work is refused, in-flight work finishes. */
    public boolean isDraining() {
        return state != State.RUNNING;
    }

    /**
     * True for a request whose first byte came after shutdown began: a new request, to refuse. One
     * that arrived earlier is in flight, even if it waited for a pool thread, and is served.
     */
    public boolean isNew(long arrivalNanos) {
        return arrivalNanos - drainingSince >= 0;
    }

    public long uptimeMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** Moves to {@code next}, unless the server is already there or beyond. */
    synchronized void advance(State next) {
        if (next.ordinal() > state.ordinal()) {
            if (next == State.DRAINING) {
                drainingSince = System.nanoTime();
            }
            state = next;
        }
    }
}
