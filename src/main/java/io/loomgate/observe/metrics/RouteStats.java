package io.loomgate.observe.metrics;

import io.loomgate.observe.histogram.LastMinute;
import io.loomgate.observe.histogram.Histogram;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/** One route's counters: requests by status, in flight, and latency. Lock-free, allocation-free to record. */
final class RouteStats {

    private final LongAdder inFlight = new LongAdder();
    private final AtomicLongArray byStatus = new AtomicLongArray(600);
    private final Histogram latency = new Histogram();
    private final LastMinute lastMinute = new LastMinute();
    private final LongAdder cutOff = new LongAdder();

    void started() {
        inFlight.increment();
    }

    void finished(boolean wasStarted, int status, boolean wasCutOff, long nanos) {
        if (wasStarted) {
            inFlight.decrement();
        }
        if (wasCutOff) {
            cutOff.increment();
        }
        byStatus.incrementAndGet(status >= 100 && status < 600 ? status : 0);
        latency.record(nanos);
        lastMinute.record(nanos, status >= 500);
    }

    RouteSnapshot snapshot() {
        Map<Integer, Long> statuses = new TreeMap<>();
        long requests = 0;
        for (int s = 0; s < byStatus.length(); s++) {
            long n = byStatus.get(s);
            if (n > 0) {
                statuses.put(s, n);
                requests += n;
            }
        }
        return new RouteSnapshot(requests, inFlight.sum(), statuses, latency.snapshot(), lastMinute.snapshot(), cutOff.sum());
    }

    /**
     * @param requests requests answered (or abandoned) on this route
     * @param inFlight requests whose handler is running now
     * @param statuses requests by status code
     * @param latency  from the first byte read to the end of the response
     * @param lastMinute the last minute's latencies and 5xx answers
     * @param cutOff   streamed answers cut off part way because the upstream's body failed
     */
    record RouteSnapshot(long requests, long inFlight, Map<Integer, Long> statuses, HistogramSnapshot latency,
                         LastMinute.Window lastMinute, long cutOff) {
    }
}
