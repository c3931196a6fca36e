package io.loomgate.metrics;

import io.loomgate.config.ServerOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.server.GatewayServer;
import io.loomgate.server.Lifecycle;
import io.loomgate.service.CallTracker;
import java.util.concurrent.ThreadPoolExecutor;

/** Reads every source of metrics into one {@link MetricsSnapshot}, and renders it in a format. */
public final class MetricsSource {

    private final GatewayMetrics metrics;
    private final GatewayServer server;
    private final CallTracker tracker;
    private final VirtualThreads virtualThreads;
    private final ServerOptions options;
    private final Lifecycle lifecycle;
    private final String version;

    public MetricsSource(GatewayMetrics metrics, GatewayServer server, CallTracker tracker, VirtualThreads virtualThreads,
                         ServerOptions options, Lifecycle lifecycle, String version) {
        this.metrics = metrics;
        this.server = server;
        this.tracker = tracker;
        this.virtualThreads = virtualThreads;
        this.options = options;
        this.lifecycle = lifecycle;
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
        ThreadPoolExecutor pool = server.pool();
        MetricsSnapshot.Pool poolSnapshot = options.threads() == ThreadMode.PLATFORM && pool != null
                ? new MetricsSnapshot.Pool(pool.getCorePoolSize(), pool.getActiveCount(), pool.getQueue().size())
                : null;
        return new MetricsSnapshot(version, options.threads(), lifecycle.uptimeMillis(), server.inFlight(),
                server.admission().shed(), server.admission().max(), metrics.routes(), metrics.services(tracker),
                JvmSnapshot.take(), virtualThreads.snapshot(), poolSnapshot);
    }
}
