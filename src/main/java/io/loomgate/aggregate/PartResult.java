package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.Objects;

/** One part of an aggregation as the response reports it. */
public record PartResult(ServiceName service, Outcome outcome, Duration duration) {

    public PartResult {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(duration, "duration");
    }
}
