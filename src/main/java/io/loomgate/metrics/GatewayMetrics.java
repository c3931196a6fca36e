package io.loomgate.metrics;

import io.loomgate.aggregate.Aggregation;
import io.loomgate.aggregate.AggregationListener;
import io.loomgate.aggregate.PartResult;
import io.loomgate.server.RequestObserver;
import io.loomgate.service.CallTracker;
import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The request and service counters, fed on the request threads as requests finish and aggregations
 * merge. Routes are keyed by their path, and every request that matched no route by
 * {@link RequestObserver#UNMATCHED}, so the set of keys is fixed by the route table and random paths
 * cannot grow it.
 */
public final class GatewayMetrics implements RequestObserver, AggregationListener {

    private final Map<String, RouteStats> routes = new ConcurrentHashMap<>();
    private final Map<ServiceName, ServiceStats> services = new EnumMap<>(ServiceName.class);
    private final List<String> order = new CopyOnWriteArrayList<>();

    public GatewayMetrics() {
        for (ServiceName s : ServiceName.values()) {
            services.put(s, new ServiceStats());
        }
        registerRoutes(List.of(UNMATCHED));
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
    public void started(String route) {
        stats(route).started();
    }

    @Override
    public void finished(RequestSummary s) {
        stats(s.route()).finished(s.started(), s.status(), s.nanos());
    }

    @Override
    public void aggregated(Aggregation aggregation) {
        for (PartResult p : aggregation.parts()) {
            services.get(p.service()).called(CallOutcome.of(p.outcome()), p.duration().toNanos());
        }
    }

    @Override
    public void orphanEnded(ServiceName service, Duration workAfterResponse) {
        services.get(service).orphanEnded(workAfterResponse.toNanos());
    }

    /** Every route in registration order, {@code unmatched} first. */
    public Map<String, RouteStats.RouteSnapshot> routes() {
        Map<String, RouteStats.RouteSnapshot> result = new LinkedHashMap<>();
        for (String r : order) {
            result.put(r, routes.get(r).snapshot());
        }
        return result;
    }

    /** Every service, with calls in flight as the tracker counts them. */
    public Map<ServiceName, ServiceStats.ServiceSnapshot> services(CallTracker tracker) {
        Map<ServiceName, ServiceStats.ServiceSnapshot> result = new EnumMap<>(ServiceName.class);
        services.forEach((name, stats) -> result.put(name, stats.snapshot(tracker.inFlight(name))));
        return result;
    }

    private RouteStats stats(String route) {
        RouteStats r = routes.get(route);
        // Route keys come from the route table; anything else is a bug, counted where it cannot grow memory.
        return r != null ? r : routes.get(UNMATCHED);
    }
}
