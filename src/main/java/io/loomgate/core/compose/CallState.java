package io.loomgate.core.compose;

import java.util.List;

/**
 * How one call of a graph stands during a request. Touched only by the owner thread that drives
 * the graph, so nothing here is synchronised.
 */
final class CallState {

    /** Where the call is; how an unfinished one ended is decided once the graph stops ({@link Composer}). */
    enum Phase { WAITING, RUNNING, SUCCEEDED, FAILED }

    Phase phase = Phase.WAITING;
    /** Its answer as JSON (for a failed optional call, its fallback). */
    Object value;
    /** Why it failed, or why it never started; what a client may read. */
    String reason = "";
    /** What it failed with, when it ran and failed. */
    Throwable failure;
    long beganNanos;
    long endedNanos;

    /** For a forEach call: the elements, their answers so far, and how many are out. */
    List<?> items;
    Object[] answers;
    int nextItem;
    int itemsRunning;
    int itemsDone;

    boolean settled() {
        return phase != Phase.WAITING && phase != Phase.RUNNING;
    }

    /** True when calls that need it may run: it succeeded, or it is optional and failed (its fallback stands in). */
    boolean usable(CallSpec spec) {
        return phase == Phase.SUCCEEDED || (spec.optional() && phase == Phase.FAILED);
    }

    void began(long at) {
        if (beganNanos == 0 || at < beganNanos) {
            beganNanos = at;
        }
    }

    void ended(long at) {
        endedNanos = Math.max(endedNanos, at);
    }
}
