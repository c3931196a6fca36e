package io.loomgate.observe.metrics;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.MetricSet;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Reads every source of metrics into one {@link MetricsSnapshot}, and renders it in a format. */
public final class MetricsSource {

    /**
     * What the metrics read of the upstreams now serving, without naming them: each one's calls in
     * flight, and the metric sets they own (breakers, endpoints, caches, retries).
     */
    public interface Upstreams {

        long inFlight(UpstreamId id);

        List<MetricSet> metricSets();
    }

    private final GatewayMetrics metrics;
    private final ServerGauges server;
    private final Supplier<Upstreams> upstreams;
    private final VirtualThreads virtualThreads;
    private final ThreadMode threads;
    private final LongSupplier uptimeMillis;
    private final String version;
    private final Supplier<List<LimitStats>> limits;
    private final Supplier<List<MetricSet>> components;

    /**
     * Reads the upstreams {@code upstreams} gives at each snapshot (those of the plan now serving),
     * and {@code components}' sets at each snapshot (the server's connections, the trace exporter's
     * spans, the Redis client's when shared limits have one).
     */
    public MetricsSource(GatewayMetrics metrics, ServerGauges server, Supplier<Upstreams> upstreams, VirtualThreads virtualThreads,
                         ThreadMode threads, LongSupplier uptimeMillis, String version, Supplier<List<LimitStats>> limits,
                         Supplier<List<MetricSet>> components) {
        this.limits = limits;
        this.components = components;
        this.metrics = metrics;
        this.server = server;
        this.upstreams = upstreams;
        this.virtualThreads = virtualThreads;
        this.threads = threads;
        this.uptimeMillis = uptimeMillis;
        this.version = version;
    }

    /** The metrics now, as {@code format}. */
    public String render(MetricsFormat format) {
        MetricsSnapshot s = snapshot();
        return switch (format) {
            case TEXT -> TextFormat.render(s);
            case PROMETHEUS -> PrometheusFormat.render(s);
            case JSON -> JsonFormat.render(s);
        };
    }

    MetricsSnapshot snapshot() {
        Upstreams now = upstreams.get();
        List<MetricSet> sets = new java.util.ArrayList<>(components.get());
        sets.addAll(now.metricSets());
        return new MetricsSnapshot(version, threads, uptimeMillis.getAsLong(), server.inFlight(),
                server.shed(), server.maxInflight(), metrics.routes(), metrics.services(now::inFlight),
                JvmSnapshot.take(), virtualThreads.snapshot(), server.pool().orElse(null),
                limits.get(), metrics.reloads(), metrics.accessLogDropped(), sets);
    }
}
