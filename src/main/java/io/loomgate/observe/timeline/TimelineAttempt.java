package io.loomgate.observe.timeline;

import java.util.Objects;

/**
 * One try of a retried call, or of any call to an upstream with several endpoints, on its request's
 * timeline, in milliseconds from the request's arrival.
 *
 * @param service  the upstream
 * @param number   1 for the first try, 2 for the first retry, ...
 * @param outcome  {@code success}, {@code failed}, {@code timeout} or {@code cancelled}
 * @param detail   why it failed; empty for a success
 * @param endpoint the endpoint it went to ({@code 10.0.0.5:8080}) when the upstream has several; else empty
 */
public record TimelineAttempt(String service, int number, double startMs, double durationMs, String outcome, String detail,
                          String endpoint) {

    public TimelineAttempt {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(outcome, "outcome");
        detail = TimelineSpan.cut(Objects.requireNonNull(detail, "detail"));
        Objects.requireNonNull(endpoint, "endpoint");
    }
}
