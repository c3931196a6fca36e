package io.loomgate.core.compose;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one call of a composed request ended: its {@link FinishedCall}, and what composition needs
 * beside it.
 *
 * @param call     the call, named as the route file names it: success, failed, fallback (an optional
 *                 call's failure), cancelled (stopped, or never started, because a required call
 *                 failed) or timeout (the request's deadline came first); a forEach call runs from its
 *                 first element's start to its last one's end
 * @param value    its answer as JSON; for a fallback, what stands in; null otherwise
 * @param reason   why it failed or did not start; empty for a success
 * @param status   the upstream's HTTP status, when it answered with one
 * @param body     the upstream's JSON error document, when it sent one
 * @param late     true when it failed by its own timeout
 * @param elements for a forEach call, how many elements it ran for; 0 otherwise
 */
public record CallResult(FinishedCall call, Object value, String reason, OptionalInt status, Optional<String> body,
                         boolean late, int elements) {

    public CallResult {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(body, "body");
    }

    public String name() {
        return call.name();
    }

    public Outcome outcome() {
        return call.outcome();
    }

    /** From the graph's start to this call's; empty if it never started. */
    public Optional<Duration> start() {
        return call.start();
    }

    public boolean succeeded() {
        return call.outcome() instanceof Outcome.Success;
    }
}
