package io.loomgate.config;

import java.time.Duration;
import java.util.Objects;

/**
 * What loomgate prints and exposes about itself.
 *
 * @param metricsLog     interval of the {@code [metrics]} log line; zero turns it off
 * @param accessLog      one log line per request
 * @param debugEndpoints serve {@code /debug/threads}
 */
public record ObservabilityOptions(Duration metricsLog, boolean accessLog, boolean debugEndpoints) {

    public ObservabilityOptions {
        Objects.requireNonNull(metricsLog, "metricsLog");
    }
}
