package io.loomgate.core.compose;

import io.loomgate.core.call.Outcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one call of a composed request ended.
 *
 * @param name     the call
 * @param outcome  success, failed, fallback (an optional call's failure), cancelled (stopped, or never
 *                 started, because a required call failed) or timeout (the request's deadline came first)
 * @param value    its answer as JSON; for a fallback, what stands in; null otherwise
 * @param reason   why it failed or did not start; empty for a success
 * @param status   the upstream's HTTP status, when it answered with one
 * @param body     the upstream's JSON error document, when it sent one
 * @param late     true when it failed by its own timeout
 * @param start    from the graph's start to this call's; empty if it never started
 * @param duration from its start to its end (a forEach call: its first element's start to its last one's end)
 * @param elements for a forEach call, how many elements it ran for; 0 otherwise
 */
public record CallResult(String name, Outcome outcome, Object value, String reason, OptionalInt status,
                         Optional<String> body, boolean late, Optional<Duration> start, Duration duration, int elements) {

    public CallResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(duration, "duration");
    }

    public boolean succeeded() {
        return outcome instanceof Outcome.Success;
    }
}
