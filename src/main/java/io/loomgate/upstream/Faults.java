package io.loomgate.upstream;

import java.time.Duration;
import java.util.Objects;

/**
 * The faults injected into every call of one upstream, unless a request overrides them: a latency
 * slept before the call ({@code ?delay=} replaces it) and a probability of failing after it.
 *
 * @param latency     slept before each call; zero for none
 * @param failureRate probability, from 0 to 1, that a call fails once it has done its work
 */
public record Faults(Duration latency, double failureRate) {

    public static final Faults NONE = new Faults(Duration.ZERO, 0);

    public Faults {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0: " + latency);
        }
        if (!(failureRate >= 0 && failureRate <= 1)) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1: " + failureRate);
        }
    }

    public Faults withLatency(Duration latency) {
        return new Faults(latency, failureRate);
    }

    public Faults withFailureRate(double failureRate) {
        return new Faults(latency, failureRate);
    }
}
