package io.loomgate.api;

import io.loomgate.config.Config;
import io.loomgate.core.compose.Composer;
import io.loomgate.core.fanout.Aggregator;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.metrics.MetricsSource;
import io.loomgate.observe.timeline.RecentRequests;
import io.loomgate.edge.listener.Lifecycle;
import io.loomgate.upstream.Upstreams;
import java.util.List;

/**
 * What the endpoints are built from: the process (its configuration and lifecycle), the plan now
 * served ({@link Served}: its upstreams, the engines over them, its routes) and where they tell what
 * happened ({@link Seen}).
 */
public record Wiring(Config config, Lifecycle lifecycle, Served served, Seen seen) {

    /**
     * @param upstreams  the registry the routes call through
     * @param aggregator the fan-out engine, and {@code composer} the composed routes' one
     * @param routes     the fan-out routes, in the order the route file lists them
     * @param proxies    the reverse-proxy routes
     * @param composes   the composed routes
     */
    public record Served(Upstreams upstreams, Aggregator aggregator, Composer composer, List<FanOutRoute> routes,
                         List<ProxyRoute> proxies, List<ComposeRoute> composes) {

        public Served {
            routes = List.copyOf(routes);
            proxies = List.copyOf(proxies);
            composes = List.copyOf(composes);
        }
    }

    /**
     * @param metrics what {@code /metrics} renders
     * @param recent  the timelines of the last requests, for the pages that show them
     * @param events  where routes tell their answers (the metrics, the recent timelines)
     */
    public record Seen(MetricsSource metrics, RecentRequests recent, Events events) {
    }
}
