package io.loomgate.core.call;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One call of a request, finished: the one record the engine, the policies, the answers, the
 * timeline, {@code Server-Timing} and the metrics all read. A fan-out's part is one (named after its
 * upstream); so is a composed route's call (named as the route file names it) and a proxied exchange.
 *
 * @param name     the call's name: a composed call's, else its upstream's
 * @param upstream the upstream it called
 * @param outcome  how it ended
 * @param start    from the request's fan-out (or graph) start to this call's; empty if it never started
 * @param duration from its start until it ended or, if it still ran, until the answer; zero if it never started
 */
public record FinishedCall(String name, UpstreamId upstream, Outcome outcome, Optional<Duration> start, Duration duration) {

    public FinishedCall {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(duration, "duration");
    }

    /** A fan-out's part: named after its upstream. */
    public FinishedCall(UpstreamId upstream, Outcome outcome, Optional<Duration> start, Duration duration) {
        this(upstream.value(), upstream, outcome, start, duration);
    }

    /** A part that started with its fan-out (or, with a zero duration, never started). */
    public FinishedCall(UpstreamId upstream, Outcome outcome, Duration duration) {
        this(upstream, outcome, duration.isZero() ? Optional.empty() : Optional.of(Duration.ZERO), duration);
    }

    /** True when the call was started; a hedge's backup may never be. */
    public boolean started() {
        return start.isPresent();
    }

    /** The same call, ended as {@code replacement} says (a fallback in a failed part's place). */
    public FinishedCall with(Outcome replacement) {
        return new FinishedCall(name, upstream, replacement, start, duration);
    }
}
