package io.loomgate.upstream;

import io.loomgate.core.port.Forward;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.http.Response;
import java.time.Duration;

/**
 * A decorator that injects faults into any upstream: it sleeps the configured latency (drawn for
 * each call when it has a tail), or the request's {@code ?delay=}, before the call; after the call
 * it fails it if the request asked ({@code ?fail=}) or the dice say so. A failing call therefore
 * takes as long as a succeeding one.
 */
final class FaultInjected implements Layered {

    private final UpstreamId id;
    private final Layered inner;
    private final Faults faults;
    private final FailureDice dice;

    FaultInjected(UpstreamId id, Layered inner, Faults faults, FailureDice dice) {
        this.id = id;
        this.inner = inner;
        this.faults = faults;
        this.dice = dice;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return call(Call.PLAIN);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        Overrides overrides = RequestContext.current().overrides();
        Duration latency = overrides.delayOf(id).orElseGet(this::drawLatency);
        if (latency.isPositive()) {
            Thread.sleep(latency);
        }
        Value value = inner.call(call);
        if (overrides.fails(id)) {
            throw new UpstreamFailure(id, "failed on request (?fail=" + id + ")");
        }
        if (dice.fails(faults.failureRate())) {
            throw new UpstreamFailure(id, "random failure (rate " + faults.failureRate() + ")");
        }
        return value;
    }

    /**
     * A forwarded request gets the declared latency, then the dice; a request the dice fail is never
     * sent (a proxy's query belongs to the upstream, so {@code ?fail=} and {@code ?delay=} do not apply).
     */
    @Override
    public Response forward(Forward request) throws UpstreamFailure, InterruptedException {
        Duration latency = drawLatency();
        if (latency.isPositive()) {
            Thread.sleep(latency);
        }
        if (dice.fails(faults.failureRate())) {
            throw new UpstreamFailure(id, "random failure (rate " + faults.failureRate() + "); not forwarded");
        }
        return inner.forward(request);
    }

    private Duration drawLatency() {
        return faults.latency().hasTail() ? faults.latency().draw(dice.uniform()) : faults.latency().typical();
    }

    @Override
    public void check(RequestContext request) {
        inner.check(request);
    }
}
