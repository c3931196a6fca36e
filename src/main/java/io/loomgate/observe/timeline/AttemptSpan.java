package io.loomgate.observe.timeline;

import java.util.Objects;

/**
 * One try of a retried call on its request's timeline, in milliseconds from the request's arrival.
 *
 * @param service  the upstream
 * @param number   1 for the first try, 2 for the first retry, ...
 * @param outcome  {@code success}, {@code failed} or {@code timeout}
 * @param detail   why it failed; empty for a success
 */
public record AttemptSpan(String service, int number, double startMs, double durationMs, String outcome, String detail) {

    public AttemptSpan {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(outcome, "outcome");
        detail = Span.cut(Objects.requireNonNull(detail, "detail"));
    }
}
