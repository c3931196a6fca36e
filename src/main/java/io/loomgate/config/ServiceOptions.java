package io.loomgate.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How upstream calls are faulted, and the deadlines aggregation requests get.
 *
 * @param latencies        latency overrides by upstream id ({@code --latency}); others keep the route file's
 * @param failureRates     failure probability overrides by upstream id ({@code --failure-rate})
 * @param seed             seed for random failures, empty for an unseeded source
 * @param timeout          the default request deadline
 * @param maxTimeout       the largest deadline a client may ask for
 * @param latencyOrigin    where the latency overrides came from, for messages ({@code --latency})
 * @param failureRateOrigin where the failure-rate overrides came from
 */
public record ServiceOptions(Map<String, Latency> latencies, Map<String, Double> failureRates,
                             OptionalLong seed, Duration timeout, Duration maxTimeout,
                             String latencyOrigin, String failureRateOrigin) {

    /** Options with the overrides' origins named after their flags. */
    public ServiceOptions(Map<String, Latency> latencies, Map<String, Double> failureRates, OptionalLong seed,
                          Duration timeout, Duration maxTimeout) {
        this(latencies, failureRates, seed, timeout, maxTimeout, "--latency", "--failure-rate");
    }

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
}
