package io.loomgate.observe.metrics;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.List;
import java.util.Map;

/**
 * Everything {@code /metrics} shows, read once, so the text, Prometheus and JSON formats all render
 * the same moment.
 *
 * @param inFlight    exchanges the server is working on now, this {@code /metrics} request included
 * @param shed        requests refused by the admission limit since start
 * @param maxInflight the admission limit (0: none)
 * @param pool        the platform request pool, or null in virtual mode
 * @param limits      the limits kept per key: rate limits, pre-auth limits, refused credentials per address
 * @param components  the metric sets components write themselves (the server's connections, the trace
 *                    exporter, the upstreams' breakers, endpoints, caches and retries, Redis)
 */
record MetricsSnapshot(String version, ThreadMode threads, long uptimeMs, long inFlight, long shed, int maxInflight,
                       Map<String, RouteStats.RouteSnapshot> routes,
                       Map<UpstreamId, ServiceStats.ServiceSnapshot> services,
                       JvmSnapshot jvm, VirtualThreads.Snapshot virtualThreads, ServerGauges.Pool pool,
                       List<LimitStats> limits, GatewayMetrics.Reloads reloads, long accessLogDropped,
                       List<MetricSet> components) {

    MetricsSnapshot {
        limits = List.copyOf(limits);
        components = List.copyOf(components);
    }

    /** Requests answered on every route. */
    long requests() {
        return routes.values().stream().mapToLong(RouteStats.RouteSnapshot::requests).sum();
    }

    /** Mean latency over every request since start, in milliseconds. */
    double averageResponseMs() {
        long n = 0;
        long nanos = 0;
        for (RouteStats.RouteSnapshot r : routes.values()) {
            n += r.latency().count();
            nanos += r.latency().sumNanos();
        }
        return n == 0 ? 0 : nanos / 1e6 / n;
    }

    /** Every route's latency together. */
    HistogramSnapshot allLatencies() {
        HistogramSnapshot all = HistogramSnapshot.empty();
        for (RouteStats.RouteSnapshot r : routes.values()) {
            all = all.plus(r.latency());
        }
        return all;
    }
}
