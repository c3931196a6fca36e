package io.loomgate.metrics;

import io.loomgate.aggregate.Outcome;
import java.util.Locale;

/** How a service call ended, as metrics count it: one per {@link Outcome} kind. */
public enum CallOutcome {
    SUCCESS, FAILED, CANCELLED, TIMEOUT, FALLBACK, ORPHANED;

    static CallOutcome of(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Success s -> SUCCESS;
            case Outcome.Failed f -> FAILED;
            case Outcome.Cancelled c -> CANCELLED;
            case Outcome.TimedOut t -> TIMEOUT;
            case Outcome.Fallback f -> FALLBACK;
            case Outcome.Orphaned o -> ORPHANED;
        };
    }

    /** {@code success}, {@code failed}, ...: the JSON key and the Prometheus label value. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
