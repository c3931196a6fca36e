package io.loomgate.observe.event;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import java.time.Duration;

/**
 * One call as the upstream stack saw it: when it went out, when it came back, and how, however many
 * tries it took. Times are {@link System#nanoTime()} values.
 */
public record CallRecord(UpstreamId upstream, String requestId, long startNanos, long endNanos, Outcome outcome) {

    public Duration duration() {
        return Duration.ofNanos(endNanos - startNanos);
    }

    /** True when the call was stopped by an interrupt (cancelled, or stopped at the deadline). */
    public boolean interrupted() {
        return outcome instanceof Outcome.Cancelled || outcome instanceof Outcome.TimedOut;
    }
}
