package io.loomgate.core.fanout;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a hedge did for one request.
 *
 * @param sent     whether the backup copy was sent
 * @param sentAt   when it was sent, from the fan-out's start
 * @param winner   {@code primary} or {@code backup}: the copy whose success is the answer; empty if neither succeeded
 */
public record HedgeReport(boolean sent, Optional<Duration> sentAt, Optional<String> winner) {

    public HedgeReport {
        Objects.requireNonNull(sentAt, "sentAt");
        Objects.requireNonNull(winner, "winner");
    }
}
