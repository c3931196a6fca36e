package io.loomgate.aggregate;

import io.loomgate.call.ServiceId;
import java.time.Duration;

/** Hears what aggregations did: every merged answer, and every orphan that finally ended. Metrics listen here. */
public interface AggregationListener {

    /** An aggregation was merged; its parts carry their outcomes and durations. */
    void aggregated(Aggregation aggregation);

    /** An orphaned part ended {@code workAfterResponse} after its response was decided. */
    void orphanEnded(ServiceId service, Duration workAfterResponse);
}
