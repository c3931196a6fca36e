package io.loomgate.aggregate;

import io.loomgate.config.ThreadMode;
import io.loomgate.service.CallPlan;
import io.loomgate.service.ServiceFailure;
import io.loomgate.service.ServiceValue;
import io.loomgate.service.Services;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs an aggregation: makes the calls a request planned, fans them out as the {@link Policy} says
 * (structured, or the CompletableFuture baseline), and merges the result. Must be called inside a
 * {@link RequestContext} binding.
 */
public final class Aggregator {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final Services services;
    private final ThreadMode mode;
    private final LongAdder virtualStarted;
    private final AggregationListener listener;

    /**
     * @param mode           the server's thread mode; structured subtasks run on the same kind of thread
     * @param virtualStarted counts the virtual threads forked
     * @param listener       hears every part's outcome (metrics)
     */
    public Aggregator(Services services, ThreadMode mode, LongAdder virtualStarted, AggregationListener listener) {
        this.services = services;
        this.mode = mode;
        this.virtualStarted = virtualStarted;
        this.listener = listener;
    }

    /**
     * Makes the calls of {@code plans} and merges them under {@code policy}. Structured policies
     * return only after every call has ended.
     *
     * @throws InterruptedException when this request thread is interrupted (shutdown cut it off)
     */
    public Aggregation run(Policy policy, List<CallPlan> plans) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        List<StructuredFanOut.Part> parts = plans.stream()
                .map(plan -> new StructuredFanOut.Part(plan.service(), () -> call(plan)))
                .toList();
        Duration remaining = ctx.remaining();
        FanOutResult result = switch (policy) {
            case CompletableFuturePolicy cf -> CompletableFutureFanOut.run(rebound(parts, ctx), remaining,
                    ctx.timeout(), cf.executor(), listener::orphanEnded);
            case AllPolicy _, AnyPolicy _, FallbackPolicy _ -> StructuredFanOut.run(parts, policy.stopWhen(),
                    remaining, ctx.timeout(), mode, ctx.requestId(), ctx.endpoint() + " " + ctx.requestId(),
                    virtualStarted);
        };
        logUnexpected(result, ctx);
        Aggregation aggregation = policy.merge(result);
        listener.aggregated(aggregation);
        return aggregation;
    }

    private ServiceValue call(CallPlan plan) throws ServiceFailure, InterruptedException {
        return services.call(plan, RequestContext.current().requestId());
    }

    /** CompletableFuture tasks do not inherit scoped values: each task binds the context again. */
    private static List<StructuredFanOut.Part> rebound(List<StructuredFanOut.Part> parts, RequestContext ctx) {
        return parts.stream()
                .map(p -> new StructuredFanOut.Part(p.service(),
                        () -> ScopedValue.where(RequestContext.CURRENT, ctx).call(p.task()::call)))
                .toList();
    }

    private static void logUnexpected(FanOutResult result, RequestContext ctx) {
        for (Completion c : result.completions()) {
            if (c.result() instanceof Completion.Threw(Throwable error) && !(error instanceof ServiceFailure)) {
                LOG.log(Level.WARNING, "request " + ctx.requestId() + ": " + c.service().wire()
                        + " failed with an unexpected exception", error);
            }
        }
    }
}
