package io.loomgate.upstream;

import java.time.Duration;
import java.util.Objects;

/**
 * When an upstream's circuit breaker opens, and for how long.
 *
 * @param consecutiveFailures opens after this many failures in a row (timeouts count)
 * @param failureRate         or when more than this share of the last {@code window} calls failed
 * @param window              how many recent calls the rate is taken over (and the fewest it needs)
 * @param coolDown            how long it stays open before it lets one probe through
 */
public record BreakerSettings(int consecutiveFailures, double failureRate, int window, Duration coolDown) {

    public static final BreakerSettings DEFAULTS = new BreakerSettings(5, 0.5, 20, Duration.ofSeconds(5));

    public BreakerSettings {
        if (consecutiveFailures < 1) {
            throw new IllegalArgumentException("consecutiveFailures must be >= 1: " + consecutiveFailures);
        }
        if (!(failureRate > 0 && failureRate <= 1)) {
            throw new IllegalArgumentException("failureRate must be in (0, 1]: " + failureRate);
        }
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1: " + window);
        }
        Objects.requireNonNull(coolDown, "coolDown");
    }
}
