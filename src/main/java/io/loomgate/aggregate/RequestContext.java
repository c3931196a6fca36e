package io.loomgate.aggregate;

import java.time.Duration;
import java.util.Objects;

/**
 * What a request's subtasks need to know about it: its id and its deadline. Bound in a
 * {@link ScopedValue} around the aggregation; the subtasks of a {@code StructuredTaskScope} inherit
 * the binding. CompletableFuture tasks do not, so the baseline must bind it again by hand.
 *
 * @param requestId     the request id, for the call tracker and the logs
 * @param endpoint      the endpoint's path
 * @param deadlineNanos {@link System#nanoTime()} by which the answer is due
 * @param timeout       the deadline as the client asked for it (or the default)
 */
public record RequestContext(String requestId, String endpoint, long deadlineNanos, Duration timeout) {

    public static final ScopedValue<RequestContext> CURRENT = ScopedValue.newInstance();

    public RequestContext {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** The context of the request this thread works for; fails outside of one. */
    public static RequestContext current() {
        return CURRENT.get();
    }

    /** Time left until the deadline; zero or negative once it has passed. */
    public Duration remaining() {
        return Duration.ofNanos(deadlineNanos - System.nanoTime());
    }
}
