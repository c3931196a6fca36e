package io.loomgate.core.compose;

import io.loomgate.core.call.Status;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A composed request, settled: each call's result in declared order, and what decided the answer.
 *
 * @param graph       the route's graph
 * @param calls       one result per call, in declared order
 * @param failed      the required call whose failure decided the answer, if one did
 * @param deadlineHit true when the request's deadline came before every required call had ended
 * @param timeout     the request's deadline, for messages
 * @param took        from the graph's start until the answer was known
 */
public record Composition(CallGraph graph, List<CallResult> calls, Optional<CallResult> failed, boolean deadlineHit,
                          Duration timeout, Duration took) {

    public Composition {
        calls = List.copyOf(calls);
    }

    /** ok, degraded (an optional call failed), failed (a required one did) or timeout. */
    public Status status() {
        if (failed.isPresent()) {
            return failed.get().late() ? Status.TIMEOUT : Status.FAILED;
        }
        if (deadlineHit && unfinished().stream().anyMatch(c -> !graph.call(c.name()).optional())) {
            return Status.TIMEOUT;
        }
        return calls.stream().allMatch(CallResult::succeeded) ? Status.OK : Status.DEGRADED;
    }

    /** The calls that had not ended when the answer was decided, started or not. */
    public List<CallResult> unfinished() {
        return calls.stream().filter(c -> c.outcome().unfinished()).toList();
    }

    /** The calls that failed, optional ones included, with their reasons: what {@code {errors}} stands for. */
    public List<CallResult> errors() {
        return calls.stream().filter(c -> !c.succeeded() && !c.reason().isEmpty()).toList();
    }
}
