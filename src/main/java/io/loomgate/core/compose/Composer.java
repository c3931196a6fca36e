package io.loomgate.core.compose;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.engine.DrivenScope;
import io.loomgate.core.port.Calls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs composed routes: one structured scope per request, each call a subtask forked the moment its
 * inputs are ready, every call through its upstream's decorators (call log, breaker, faults). Must be
 * called inside a {@link RequestContext}, whose deadline covers the whole graph.
 *
 * <pre>{@code
 * Composition c = RequestContext.callWith(ctx, () -> composer.run(graph, null, Optional.empty()));
 * }</pre>
 */
public final class Composer {

    private final Calls upstreams;
    private final ThreadMode mode;
    private final LongAdder virtualStarted;

    public Composer(Calls upstreams, ThreadMode mode, LongAdder virtualStarted) {
        this.upstreams = upstreams;
        this.mode = mode;
        this.virtualStarted = virtualStarted;
    }

    /**
     * @param body        the client's body, for the call that carries it; null if none does
     * @param contentType the body's media type
     * @throws InterruptedException when shutdown cut the request off
     */
    public Composition run(CallGraph graph, byte[] body, Optional<String> contentType) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        long start = System.nanoTime();
        GraphRun run = new GraphRun(graph, upstreams, ctx, body, contentType);
        DrivenScope.Finish finish = DrivenScope.run(mode, virtualStarted, run);
        long decided = System.nanoTime();
        for (DrivenScope.Ended late : finish.late()) {
            CallState state = run.states[late.id() / GraphRun.SLOTS];
            state.began(late.startNanos());
            state.ended(late.endNanos());
        }
        List<CallResult> results = new ArrayList<>(graph.calls().size());
        String stopper = run.stoppedBy >= 0 ? graph.calls().get(run.stoppedBy).name() : "";
        for (int i = 0; i < run.states.length; i++) {
            results.add(result(ctx, graph.calls().get(i), run.states[i], finish.deadlineHit(), stopper, start, decided));
        }
        Optional<CallResult> failed = run.stoppedBy >= 0 ? Optional.of(results.get(run.stoppedBy)) : Optional.empty();
        return new Composition(graph, results, failed, finish.deadlineHit(), ctx.timeout(), Duration.ofNanos(decided - start));
    }

    private static CallResult result(RequestContext ctx, CallSpec spec, CallState s, boolean deadlineHit, String stopper, long start,
                                     long decided) {
        Optional<Duration> began = s.beganNanos == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(s.beganNanos - start));
        long end = s.endedNanos == 0 ? decided : s.endedNanos;
        Duration took = s.beganNanos == 0 ? Duration.ZERO : Duration.ofNanos(Math.max(0, end - s.beganNanos));
        int elements = s.items == null ? 0 : s.items.size();
        UpstreamFailure upstream = s.failure instanceof UpstreamFailure f ? f : null;
        OptionalInt status = upstream == null ? OptionalInt.empty() : upstream.status();
        Optional<String> body = upstream == null ? Optional.empty() : upstream.body();
        boolean late = s.failure instanceof DrivenScope.TimedOut;
        return switch (s.phase) {
            case SUCCEEDED -> new CallResult(call(spec, new Outcome.Success(w -> w.tree(s.value)), began, took), s.value, "",
                    status, body, false, elements);
            case FAILED -> new CallResult(call(spec, spec.optional() ? new Outcome.Fallback(w -> w.tree(s.value), s.reason)
                    : new Outcome.Failed(s.reason, status), began, took), s.value, s.reason, status, body, late, elements);
            case RUNNING, WAITING -> {
                String why = deadlineHit ? (s.phase == CallState.Phase.RUNNING ? spec.name() + ": still running at the deadline"
                        : spec.name() + ": not started before the deadline")
                        : (s.phase == CallState.Phase.RUNNING ? spec.name() + ": cancelled, because " + stopper + " failed"
                        : spec.name() + ": not started, because " + stopper + " failed");
                Object fallback = spec.optional() && deadlineHit ? spec.fallback().orElse(null) : null;
                Outcome outcome = spec.optional() && deadlineHit ? new Outcome.Fallback(w -> w.tree(fallback), why)
                        : Outcome.stopped(ctx, deadlineHit);
                yield new CallResult(call(spec, outcome, began, took), fallback, why, OptionalInt.empty(), Optional.empty(),
                        false, elements);
            }
        };
    }

    private static FinishedCall call(CallSpec spec, Outcome outcome, Optional<Duration> began, Duration took) {
        return new FinishedCall(spec.name(), spec.upstream(), outcome, began, took);
    }
}
