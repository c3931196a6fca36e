package io.loomgate.observe.metrics;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.MetricSet;
import io.loomgate.upstream.Upstreams;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Reads every source of metrics into one {@link MetricsSnapshot}, and renders it in a format. */
public final class MetricsSource {

    private final GatewayMetrics metrics;
    private final ServerGauges server;
    private final Supplier<Upstreams> upstreams;
    private final VirtualThreads virtualThreads;
    private final ThreadMode threads;
    private final LongSupplier uptimeMillis;
    private final String version;
    private final Supplier<List<LimitStats>> limits;
    private final Supplier<List<MetricSet>> components;

    public MetricsSource(GatewayMetrics metrics, ServerGauges server, Upstreams upstreams, VirtualThreads virtualThreads,
                         ThreadMode threads, LongSupplier uptimeMillis, String version, Supplier<List<LimitStats>> limits) {
        this(metrics, server, () -> upstreams, virtualThreads, threads, uptimeMillis, version, limits, List::of);
    }

    /**
     * Reads the upstreams {@code upstreams} gives at each snapshot: those of the plan now serving, with
     * the metric sets they own; and {@code components}' sets (the Redis client's, when shared limits
     * have one).
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
        return new MetricsSnapshot(version, threads, uptimeMillis.getAsLong(), server.inFlight(),
                server.shed(), server.maxInflight(), metrics.routes(), metrics.services(now.calls()),
                JvmSnapshot.take(), virtualThreads.snapshot(), server.pool().orElse(null), retries(now),
                limits.get(), server.connections().orElse(null), metrics.reloads(), metrics.accessLogDropped(),
                metrics.spans(), sets(now));
    }

    private List<MetricSet> sets(Upstreams now) {
        List<MetricSet> all = new ArrayList<>(now.metricSets());
        all.addAll(components.get());
        return all;
    }

    private static Map<UpstreamId, MetricsSnapshot.Retries> retries(Upstreams upstreams) {
        Map<UpstreamId, MetricsSnapshot.Retries> r = new LinkedHashMap<>();
        upstreams.retries().forEach((id, s) -> r.put(id, new MetricsSnapshot.Retries(s.sentCount(), s.refusedCount())));
        return r;
    }
}
