package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A fan-out of one part that starts at once (a {@code single} route), run on the request's own
 * thread with the same deadline: there is no sibling to run beside it, so a scope and a thread would
 * only add cost. In platform mode it therefore runs on the pool thread rather than on a new one.
 */
final class InlinePart {

    private InlinePart() {
    }

    /**
     * The one part, on this thread. Interrupted by its deadline, or failing because of it (an HTTP
     * upstream's socket closed under it), it timed out; interrupted by anything else, the request
     * was cut off and the interrupt goes on up.
     */
    static FanOutResult run(FanOut.Part part, RequestContext ctx, long start, DeadlineTimer.Deadline deadline)
            throws InterruptedException {
        long began = System.nanoTime();
        Outcome outcome = null;
        long ended;
        boolean fired;
        try {
            outcome = new Outcome.Success(part.task().call());
        } catch (InterruptedException e) {
            // decided below, once the deadline says whether it was the one that interrupted
        } catch (Exception e) {
            outcome = Failures.failed(part.service(), e);
        } finally {
            ended = System.nanoTime();
            fired = deadline.disarm();
        }
        if (outcome == null && !fired) {
            throw new InterruptedException("the request was interrupted");
        }
        boolean deadlineHit = fired && !(outcome instanceof Outcome.Success);
        if (deadlineHit) {
            outcome = Outcome.TIMED_OUT;
        }
        PartResult result = new PartResult(part.service(), outcome, Optional.of(Duration.ofNanos(began - start)),
                Duration.ofNanos(ended - began));
        return new FanOutResult(List.of(result), deadlineHit, ctx.timeout(), Duration.ofNanos(System.nanoTime() - start));
    }
}
