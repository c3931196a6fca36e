package io.loomgate.config;

import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How the simulated services behave, and the deadlines aggregation requests get.
 *
 * @param latencies    latency overrides; services not named keep their default
 * @param failureRates failure probability overrides; services not named keep their default
 * @param seed         seed for random failures, empty for an unseeded source
 * @param timeout      the default request deadline
 * @param maxTimeout   the largest deadline a client may ask for
 */
public record ServiceOptions(Map<ServiceName, Duration> latencies, Map<ServiceName, Double> failureRates,
                             OptionalLong seed, Duration timeout, Duration maxTimeout) {

    public ServiceOptions {
        latencies = Map.copyOf(latencies);
        failureRates = Map.copyOf(failureRates);
        Objects.requireNonNull(seed, "seed");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(maxTimeout, "maxTimeout");
        if (timeout.compareTo(maxTimeout) > 0) {
            throw new IllegalArgumentException("timeout must not exceed maxTimeout: " + timeout + " > " + maxTimeout);
        }
    }

    /** The latency {@code service} has under this configuration. */
    public Duration latencyOf(ServiceName service) {
        return latencies.getOrDefault(service, service.defaultLatency());
    }

    /** The failure probability {@code service} has under this configuration. */
    public double failureRateOf(ServiceName service) {
        return failureRates.getOrDefault(service, service.defaultFailureRate());
    }
}
