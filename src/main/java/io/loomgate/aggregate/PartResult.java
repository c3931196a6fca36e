package io.loomgate.aggregate;

import io.loomgate.call.Outcome;
import io.loomgate.call.ServiceId;
import java.time.Duration;
import java.util.Objects;

/**
 * One part of a fan-out: its upstream, how it ended, and how long it ran (from its start until it
 * ended or, if it still runs, until the answer; zero if it never started).
 */
public record PartResult(ServiceId service, Outcome outcome, Duration duration) {

    public PartResult {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
    }

    PartResult with(Outcome replacement) {
        return new PartResult(service, replacement, duration);
    }
}
