package io.loomgate.config;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What loomgate prints and exposes about itself.
 *
 * @param metricsLog     interval of the {@code [metrics]} log line; zero turns it off
 * @param accessLog      one log line per request
 * @param debugEndpoints serve {@code /debug/threads}
 * @param adminPort      where the operator endpoints get a listener of their own (0: any free
 *                       port); empty keeps them on the main port
 * @param adminHost      the admin listener's bind address: loopback unless asked otherwise, so
 *                       the operator pages are never public by accident
 */
public record ObservabilityOptions(Duration metricsLog, boolean accessLog, boolean debugEndpoints,
                                   OptionalInt adminPort, String adminHost) {

    public ObservabilityOptions {
        Objects.requireNonNull(metricsLog, "metricsLog");
        Objects.requireNonNull(adminPort, "adminPort");
        Objects.requireNonNull(adminHost, "adminHost");
    }
}
