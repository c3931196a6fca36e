package io.loomgate.observe.timeline;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One part of a fan-out on its request's timeline, in milliseconds from the request's arrival.
 *
 * @param service  the upstream
 * @param copy     for a hedge, {@code primary} or {@code backup}; empty otherwise
 * @param outcome  how it ended, as the JSON answer's {@code state} says ({@code success},
 *                 {@code cancelled}, ...)
 * @param startMs  when it was forked; empty if it never started
 * @param durationMs how long it ran, until it ended or the answer was decided
 * @param detail   the failure or fallback reason; empty otherwise
 */
public record TimelineSpan(String service, String copy, String outcome, OptionalDouble startMs, double durationMs,
                   String detail) {

    /** Longer reasons are cut here, so one odd upstream message cannot grow the buffer. */
    static final int DETAIL_LIMIT = 200;

    public TimelineSpan {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(copy, "copy");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(startMs, "startMs");
        Objects.requireNonNull(detail, "detail");
        detail = cut(detail);
    }

    /** {@code text}, cut to {@link #DETAIL_LIMIT} characters with an ellipsis when longer. */
    static String cut(String text) {
        return text.length() <= DETAIL_LIMIT ? text : text.substring(0, DETAIL_LIMIT - 1) + "…";
    }

    public boolean started() {
        return startMs.isPresent();
    }

    /**
     * The words {@code Server-Timing} and the dashboard use: the outcome, {@code never started} for a
     * part that was not, and a hedge's copy after a comma ({@code cancelled, backup}).
     */
    public String label() {
        String what = started() ? outcome : "never started";
        return copy.isEmpty() ? what : what + ", " + copy;
    }
}
