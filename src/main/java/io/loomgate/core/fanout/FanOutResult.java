package io.loomgate.core.fanout;

import io.loomgate.core.call.FinishedCall;
import java.time.Duration;
import java.util.List;

/**
 * What a fan-out engine saw, handed to a {@link Policy} to merge.
 *
 * @param parts       one per part, in the order the parts were given
 * @param deadlineHit whether the deadline passed before the engine stopped waiting
 * @param timeout     the request's deadline as it was asked for, for messages
 * @param took        how long the fan-out ran
 */
public record FanOutResult(List<FinishedCall> parts, boolean deadlineHit, Duration timeout, Duration took) {

    public FanOutResult {
        parts = List.copyOf(parts);
    }
}
