package io.loomgate.observe.metrics;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.event.RequestSummary;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The request and upstream counters, fed by the {@link Events} on the request threads as requests
 * finish and routes answer. Routes are keyed by their path, and every request that matched no route by
 * {@link Events#UNMATCHED}; upstreams by their id. Both key sets come from the route table, so
 * random paths cannot grow them.
 */
public final class GatewayMetrics implements Events {

    private final Map<String, RouteStats> routes = new ConcurrentHashMap<>();
    private final Map<UpstreamId, ServiceStats> services = new ConcurrentHashMap<>();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final List<UpstreamId> upstreamOrder = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.LongAdder reloadsOk = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder reloadsFailed = new java.util.concurrent.atomic.LongAdder();

    /** The reloads of the configuration so far: swapped in, and refused (the running one kept). */
    public record Reloads(long ok, long failed) {
    }

    /** Counts one reload: {@code ok} when its plan was swapped in. */
    public void reloaded(boolean ok) {
        (ok ? reloadsOk : reloadsFailed).increment();
    }

    public Reloads reloads() {
        return new Reloads(reloadsOk.sum(), reloadsFailed.sum());
    }

    private volatile java.util.function.LongSupplier accessLogDropped = () -> 0;

    /** Where the count of access-log lines dropped (the log's queue was full) is read. */
    public void accessLogDropped(java.util.function.LongSupplier dropped) {
        this.accessLogDropped = dropped;
    }

    public long accessLogDropped() {
        return accessLogDropped.getAsLong();
    }

    public GatewayMetrics() {
        registerRoutes(List.of(UNMATCHED));
    }

    /** @param upstreams every upstream, in the order the metrics list them */
    public GatewayMetrics(List<UpstreamId> upstreams) {
        this();
        registerUpstreams(upstreams);
    }

    /** Creates the counters of {@code upstreams}, in this order after any registered before. */
    public void registerUpstreams(Collection<UpstreamId> upstreams) {
        for (UpstreamId id : upstreams) {
            if (services.putIfAbsent(id, new ServiceStats()) == null) {
                upstreamOrder.add(id);
            }
        }
    }

    /** Creates the counters of {@code paths}, so routes show (with zeros) before their first request. */
    public void registerRoutes(Collection<String> paths) {
        for (String p : paths) {
            if (routes.putIfAbsent(p, new RouteStats()) == null) {
                order.add(p);
            }
        }
    }

    @Override
    public void requestStarted(String route) {
        stats(route).started();
    }

    @Override
    public void requestFinished(RequestSummary s) {
        stats(s.route()).finished(s.started(), s.status(), s.cutOff(), s.nanos());
    }

    /**
     * Counts each call of the answer that started, with its upstream's calls: a fan-out's or a
     * composed route's calls, a proxied request's one exchange (its outcome as the answer's body
     * ended, its duration to the body's last byte).
     */
    @Override
    public void answered(Answer answer) {
        for (FinishedCall call : answer.calls()) {
            if (call.started()) {
                called(call);
            }
        }
    }

    private void called(FinishedCall call) {
        services.get(call.upstream()).called(call.outcome().kind(), call.duration().toNanos());
    }

    @Override
    public void orphanEnded(UpstreamId upstream, Duration workAfterResponse) {
        services.get(upstream).orphanEnded(workAfterResponse.toNanos());
    }

    /** Every route in registration order, {@code unmatched} first. */
    public Map<String, RouteStats.RouteSnapshot> routes() {
        Map<String, RouteStats.RouteSnapshot> result = new LinkedHashMap<>();
        for (String r : order) {
            result.put(r, routes.get(r).snapshot());
        }
        return result;
    }

    /** Every upstream, with calls in flight as the call log counts them. */
    public Map<UpstreamId, ServiceStats.ServiceSnapshot> services(ToLongFunction<UpstreamId> inFlight) {
        Map<UpstreamId, ServiceStats.ServiceSnapshot> result = new LinkedHashMap<>();
        upstreamOrder.forEach(id -> result.put(id, services.get(id).snapshot(inFlight.applyAsLong(id))));
        return result;
    }

    private RouteStats stats(String route) {
        RouteStats r = routes.get(route);
        // Route keys come from the route table; anything else is a bug, counted where it cannot grow memory.
        return r != null ? r : routes.get(UNMATCHED);
    }
}
