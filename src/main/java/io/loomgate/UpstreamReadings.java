package io.loomgate;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.metrics.MetricsSource;
import io.loomgate.upstream.Upstreams;
import java.util.List;

/** The upstreams as the metrics read them, so that {@code observe/metrics} need not know {@code upstream}. */
record UpstreamReadings(Upstreams upstreams) implements MetricsSource.Upstreams {

    @Override
    public long inFlight(UpstreamId id) {
        return upstreams.calls().inFlight(id);
    }

    @Override
    public List<MetricSet> metricSets() {
        return upstreams.metricSets();
    }
}
