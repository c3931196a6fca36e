package io.loomgate.upstream;

import io.loomgate.config.Latency;
import java.time.Duration;
import java.util.Objects;

/**
 * The faults injected into every call of one upstream, unless a request overrides them: a latency
 * slept before the call ({@code ?delay=} replaces it) and a probability of failing after it.
 *
 * @param latency     slept before each call (drawn per call when it has a tail); zero for none
 * @param failureRate probability, from 0 to 1, that a call fails once it has done its work
 */
public record Faults(Latency latency, double failureRate) {

    public static final Faults NONE = new Faults(Latency.NONE, 0);

    public Faults {
        Objects.requireNonNull(latency, "latency");
        if (!(failureRate >= 0 && failureRate <= 1)) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1: " + failureRate);
        }
    }

    /** A fixed latency: every call sleeps {@code latency}. */
    public Faults(Duration latency, double failureRate) {
        this(Latency.fixed(latency), failureRate);
    }

    public Faults withLatency(Latency latency) {
        return new Faults(latency, failureRate);
    }

    public Faults withFailureRate(double failureRate) {
        return new Faults(latency, failureRate);
    }
}
