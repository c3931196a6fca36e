package io.loomgate.upstream;

import io.loomgate.observe.histogram.HistogramSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One endpoint of an upstream with several, and what is known of it now: for {@code /metrics} and
 * {@code GET /admin/upstreams}.
 *
 * @param endpoint            its host and port ({@code 10.0.0.5:8080})
 * @param outstanding         tries it has now
 * @param calls               tries it has taken, ended
 * @param failures            tries it failed itself (refused, reset, 5xx, too slow)
 * @param consecutiveFailures its own failures in a row
 * @param ejected             ejected by outlier detection now
 * @param healthy             its health checks (if any) say it is up
 * @param ejections           times it has been ejected
 * @param latency             how long its tries took, from the request sent to the answer's head
 */
public record EndpointState(String endpoint, int outstanding, long calls, long failures, int consecutiveFailures,
                            boolean ejected, boolean healthy, int ejections, HistogramSnapshot latency) {

    /** As JSON shows it: the counts, and the latency as p50 and p99 in milliseconds. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("endpoint", endpoint);
        m.put("outstanding", (long) outstanding);
        m.put("calls", calls);
        m.put("failures", failures);
        m.put("consecutiveFailures", (long) consecutiveFailures);
        m.put("ejected", ejected);
        m.put("healthy", healthy);
        m.put("ejections", (long) ejections);
        m.put("p50Ms", millis(latency.percentileNanos(0.50)));
        m.put("p99Ms", millis(latency.percentileNanos(0.99)));
        return m;
    }

    private static double millis(double nanos) {
        return Math.round(nanos / 100_000.0) / 10.0;
    }
}
