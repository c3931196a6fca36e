package io.loomgate.core.fanout;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import java.time.Duration;

/**
 * Hears what aggregations did: every merged answer, every orphan that finally ended, and every call
 * a proxy or composed route made. Metrics listen here.
 */
public interface AggregationListener {

    /** An aggregation was merged; its parts carry their outcomes and durations. */
    void aggregated(Aggregation aggregation);

    /** An orphaned part ended {@code workAfterResponse} after its response was decided. */
    void orphanEnded(UpstreamId service, Duration workAfterResponse);

    /**
     * One call outside an aggregation's parts ended after {@code waited}: a proxy route's exchange
     * (a success below 500, a failure from 500 up), or a composed route's call. Counted with the
     * upstream's calls.
     */
    default void called(UpstreamId service, Outcome.Kind outcome, Duration waited) {
    }
}
