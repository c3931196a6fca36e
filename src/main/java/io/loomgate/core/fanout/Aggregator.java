package io.loomgate.core.fanout;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.port.Calls;
import io.loomgate.core.port.RetryBudget;
import java.util.List;

/**
 * Runs an aggregation: calls the route's upstreams through its engine and merges what they did
 * under its policy. Must be called inside a {@link RequestContext}.
 *
 * <pre>{@code
 * Aggregation a = RequestContext.callWith(ctx,
 *         () -> aggregator.run(Policy.all(), FanOut.structured(mode, started), List.of(db, file)));
 * }</pre>
 */
public final class Aggregator {

    private final Calls upstreams;

    public Aggregator(Calls upstreams) {
        this.upstreams = upstreams;
    }

    /**
     * Calls the upstreams {@code ids} on {@code engine} and merges them under {@code policy}. The structured
     * engine returns only after every call has ended.
     *
     * @throws InterruptedException when this request thread is interrupted (shutdown cut it off)
     */
    public Aggregation run(Policy policy, FanOut engine, List<UpstreamId> ids) throws InterruptedException {
        List<FanOut.Part> parts = policy.parts(ids.stream().map(this::part).toList()).stream()
                .map(this::drawsOnItsUpstreamsBudget).toList();
        return policy.merge(engine.run(parts, policy.stopWhen()));
    }

    /**
     * A part that waits to be admitted (a hedge's backup) also needs a token from its upstream's
     * retry budget, which the upstream's retries share: together they never exceed it.
     */
    private FanOut.Part drawsOnItsUpstreamsBudget(FanOut.Part p) {
        if (p.immediate()) {
            return p;
        }
        RetryBudget shared = upstreams.budget(p.upstream());
        return new FanOut.Part(p.upstream(), p.task(), p.after(), () -> p.admit().getAsBoolean() && shared.trySpend());
    }

    private FanOut.Part part(UpstreamId id) {
        return new FanOut.Part(id, () -> upstreams.call(id));
    }
}
