package io.loomgate.aggregate;

import io.loomgate.call.Outcome;
import io.loomgate.call.ServiceId;
import java.time.Duration;

/**
 * Hears what aggregations did: every merged answer, every orphan that finally ended, and every
 * request a proxy route forwarded. Metrics listen here.
 */
public interface AggregationListener {

    /** An aggregation was merged; its parts carry their outcomes and durations. */
    void aggregated(Aggregation aggregation);

    /** An orphaned part ended {@code workAfterResponse} after its response was decided. */
    void orphanEnded(ServiceId service, Duration workAfterResponse);

    /**
     * A proxy route's exchange with {@code service} has its answer's head (a success below 500, a
     * failure from 500 up), or ended without one, after {@code waited}: counted with its calls.
     */
    default void forwarded(ServiceId service, Outcome.Kind outcome, Duration waited) {
    }
}
