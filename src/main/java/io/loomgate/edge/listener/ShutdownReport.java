package io.loomgate.edge.listener;

import java.time.Duration;

/**
 * How a graceful shutdown went ({@link GatewayServer#shutdown()}).
 *
 * @param served     requests answered since start
 * @param cutOff     requests still in flight when the grace period ended, and interrupted or dropped
 * @param drainDelay how long the server served on, not ready, before it stopped accepting
 * @param drained    from then until every request was done (or cut off) and the server closed
 * @param took       how long the shutdown took, all phases
 */
public record ShutdownReport(long served, int cutOff, Duration drainDelay, Duration drained, Duration took) {

    /**
     * The final log line's words: {@code served 6 requests, 0 cut off after the grace period;
     * not ready at once, 5000 ms drain delay still serving, then 120 ms to drain; shutdown took
     * 5121 ms}.
     */
    public String describe() {
        return "served " + served + " requests, " + cutOff + " cut off after the grace period; not ready at once, "
                + drainDelay.toMillis() + " ms drain delay still serving, then " + drained.toMillis()
                + " ms to stop accepting and drain; shutdown took " + took.toMillis() + " ms";
    }
}
