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
 * What the endpoints are built from.
 *
 * @param routes  the fan-out routes, in the order the route file lists them
 * @param proxies the reverse-proxy routes
 * @param composes the composed routes, and the composer that runs them
 * @param recent  the timelines of the last fan-out and composed requests, for the pages that show them
 * @param events  where routes tell their answers (the metrics, the recent timelines)
 */
public record Wiring(Config config, Lifecycle lifecycle, Upstreams upstreams, Aggregator aggregator,
                     List<FanOutRoute> routes, List<ProxyRoute> proxies, List<ComposeRoute> composes, Composer composer,
                     MetricsSource metrics, RecentRequests recent, Events events) {

    public Wiring {
        routes = List.copyOf(routes);
        proxies = List.copyOf(proxies);
        composes = List.copyOf(composes);
    }
}
