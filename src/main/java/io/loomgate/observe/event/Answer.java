package io.loomgate.observe.event;

import io.loomgate.core.call.Attempts;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Status;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fan-out or composed route's answer, as the events tell it: everything its timeline, its
 * {@code Server-Timing} header and the upstream metrics are drawn from.
 *
 * @param requestId    the request id
 * @param clientId     the client's own {@code X-Request-Id} kept beside it; empty otherwise
 * @param route        the route's path
 * @param label        the merge policy, the CompletableFuture engine's name, or {@code compose}
 * @param graph        true for a composed route: its calls start as their inputs are ready, so their starts matter
 * @param status       the answer's status ({@code ok}, {@code degraded}, {@code failed}, {@code timeout})
 * @param httpStatus   the status the client got
 * @param calls        every call, in the route's order; for a hedge, the primary then the backup
 * @param hedge        true for a hedge's two copies
 * @param error        what went wrong, for failed and timed-out answers
 * @param decided      from the fan-out's start until its answer was known
 * @param timeout      the request's deadline
 * @param arrivalNanos when its first byte arrived ({@link System#nanoTime()})
 * @param forkNanos    when its calls began
 * @param answerNanos  when its answer was ready
 * @param attempts     each try of its retried calls
 * @param cache        how each call through a cache was served ({@code loomgate/db; hit}), in the order they ended
 * @param transfer     for a proxied request: the bytes each way, its first and last byte, its endpoint
 */
public record Answer(String requestId, String clientId, String route, String label, boolean graph, Status status,
                     int httpStatus, List<FinishedCall> calls, boolean hedge, Optional<String> error, Duration decided,
                     Duration timeout, long arrivalNanos, long forkNanos, long answerNanos, List<Attempts.Attempt> attempts,
                     List<String> cache, Optional<Transfer> transfer) {

    /** An answer none of whose calls went through a cache. */
    public Answer(String requestId, String clientId, String route, String label, boolean graph, Status status,
                  int httpStatus, List<FinishedCall> calls, boolean hedge, Optional<String> error, Duration decided,
                  Duration timeout, long arrivalNanos, long forkNanos, long answerNanos, List<Attempts.Attempt> attempts) {
        this(requestId, clientId, route, label, graph, status, httpStatus, calls, hedge, error, decided, timeout, arrivalNanos,
                forkNanos, answerNanos, attempts, List.of());
    }

    /** An answer that was not proxied. */
    public Answer(String requestId, String clientId, String route, String label, boolean graph, Status status,
                  int httpStatus, List<FinishedCall> calls, boolean hedge, Optional<String> error, Duration decided,
                  Duration timeout, long arrivalNanos, long forkNanos, long answerNanos, List<Attempts.Attempt> attempts,
                  List<String> cache) {
        this(requestId, clientId, route, label, graph, status, httpStatus, calls, hedge, error, decided, timeout, arrivalNanos,
                forkNanos, answerNanos, attempts, cache, Optional.empty());
    }

    public Answer {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(status, "status");
        calls = List.copyOf(calls);
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(transfer, "transfer");
        Objects.requireNonNull(decided, "decided");
        Objects.requireNonNull(timeout, "timeout");
        attempts = List.copyOf(attempts);
        cache = List.copyOf(cache);
    }
}
