package io.loomgate.core.fanout;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.engine.DrivenScope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The structured engine: a fan-out runs as a {@link FanOutRun} in the request's one
 * {@link DrivenScope}, the engine composition runs on too. It returns only when every part's thread
 * has ended: no part outlives the request.
 *
 * <p><b>One part, no fork.</b> A fan-out of a single part that starts at once (a {@code single}
 * route) runs on the request's own thread ({@link DrivenScope#alone}), with the same deadline. In
 * platform mode it therefore runs on the pool thread rather than on a new one.
 *
 * <p>A part still running when the owner stopped was interrupted by the scope: it is
 * {@code cancelled} when a sibling decided the answer, {@code timeout} when the deadline did
 * ({@link Outcome#stopped}). A part that never started is reported the same way, with no start.
 */
final class DrivenFanOut implements FanOut {

    private final ThreadMode mode;
    private final LongAdder virtualStarted;

    DrivenFanOut(ThreadMode mode, LongAdder virtualStarted) {
        this.mode = mode;
        this.virtualStarted = virtualStarted;
    }

    @Override
    public String name() {
        return "structured";
    }

    /**
     * @throws InterruptedException when this request thread is interrupted by anything but its
     *                              deadline (shutdown cut it off)
     */
    @Override
    public FanOutResult run(List<Part> parts, StopWhen stopWhen) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        long start = System.nanoTime();
        if (parts.size() == 1 && parts.getFirst().immediate()) {
            return alone(parts.getFirst(), ctx, start);
        }
        FanOutRun run = new FanOutRun(parts, stopWhen, start);
        DrivenScope.Finish finish = DrivenScope.run(mode, virtualStarted, run);
        run.late(finish.late());
        Outcome stopped = Outcome.stopped(ctx, finish.deadlineHit() && !run.ruleMet());
        List<FinishedCall> results = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            Outcome outcome = run.outcome(i) != null ? run.outcome(i) : stopped;
            results.add(result(parts.get(i), outcome, run.end(i), start));
        }
        return new FanOutResult(results, finish.deadlineHit(), ctx.timeout(), Duration.ofNanos(System.nanoTime() - start));
    }

    private static FanOutResult alone(Part part, RequestContext ctx, long start) throws InterruptedException {
        DrivenScope.Alone alone = DrivenScope.alone(0, part.task());
        DrivenScope.Ended e = alone.ended();
        Outcome outcome = alone.deadlineHit() ? Outcome.stopped(ctx, true)
                : e.succeeded() ? new Outcome.Success(e.value()) : Failures.failed(part.upstream(), e.failure());
        return new FanOutResult(List.of(result(part, outcome, e, start)), alone.deadlineHit(), ctx.timeout(),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** A part's result: from its start to its end, when it ran; no start and no duration when it never did. */
    private static FinishedCall result(Part part, Outcome outcome, DrivenScope.Ended e, long start) {
        if (e == null) {
            return new FinishedCall(part.upstream(), outcome, Optional.empty(), Duration.ZERO);
        }
        return new FinishedCall(part.upstream(), outcome, Optional.of(Duration.ofNanos(e.startNanos() - start)),
                Duration.ofNanos(e.endNanos() - e.startNanos()));
    }
}
