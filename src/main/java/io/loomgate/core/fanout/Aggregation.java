package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import io.loomgate.core.call.FinishedCall;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The merged result of a fan-out.
 *
 * @param policy   the policy's name ({@code all}, {@code any}, ...)
 * @param status   the overall result
 * @param parts    every part, in the order the endpoint lists its services
 * @param error    for {@code failed} and {@code timeout}: what went wrong, naming the services
 * @param duration from the fan-out's start until its result was known
 * @param hedge    for {@code hedge}: whether the backup was sent and which copy won
 */
public record Aggregation(String policy, Status status, List<FinishedCall> parts, Optional<String> error,
                          Duration duration, Optional<HedgeReport> hedge) {

    public Aggregation {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(status, "status");
        parts = List.copyOf(parts);
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(hedge, "hedge");
    }

    /** An aggregation without a hedge. */
    public Aggregation(String policy, Status status, List<FinishedCall> parts, Optional<String> error, Duration duration) {
        this(policy, status, parts, error, duration, Optional.empty());
    }

    /** True only for an {@code ok} answer: every part is real, none failed, late or replaced. */
    public boolean completed() {
        return status == Status.OK;
    }
}
