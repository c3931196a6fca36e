package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One part of a fan-out: its upstream, how it ended, when it started and how long it ran (from its
 * start until it ended or, if it still runs, until the answer).
 *
 * @param start    from the fan-out's start to this part's; empty if it never started (zero duration)
 */
public record PartResult(UpstreamId service, Outcome outcome, Optional<Duration> start, Duration duration) {

    public PartResult {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(duration, "duration");
    }

    /** A part that started with its fan-out (or, with a zero duration, never started). */
    public PartResult(UpstreamId service, Outcome outcome, Duration duration) {
        this(service, outcome, duration.isZero() ? Optional.empty() : Optional.of(Duration.ZERO), duration);
    }

    /** True when the part was started; a hedge's backup may never be. */
    public boolean started() {
        return start.isPresent();
    }

    PartResult with(Outcome replacement) {
        return new PartResult(service, replacement, start, duration);
    }
}
