package io.loomgate.api;

import io.loomgate.aggregate.Aggregator;
import io.loomgate.config.Config;
import io.loomgate.metrics.MetricsSource;
import io.loomgate.server.Lifecycle;
import io.loomgate.service.Services;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the endpoints are built from.
 *
 * @param virtualStarted counts every virtual thread loomgate starts
 */
public record Wiring(Config config, Lifecycle lifecycle, Services services, Aggregator aggregator,
                     LongAdder virtualStarted, MetricsSource metrics) {
}
