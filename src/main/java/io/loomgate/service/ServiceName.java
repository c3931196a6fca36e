package io.loomgate.service;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The simulated backends loomgate can call. Each has a wire name (used in flags, query parameters and
 * JSON), a default latency and a default random-failure probability.
 *
 * <p>{@code file}, {@code file-flaky} and {@code compute} do real work (disk I/O, CPU), so their
 * default added latency is zero; a latency set for them is slept before the work starts.
 */
public enum ServiceName {
    DB("db", Duration.ofMillis(300), 0.0),
    FILE("file", Duration.ZERO, 0.0),
    COMPUTE("compute", Duration.ZERO, 0.0),
    CACHE("cache", Duration.ofMillis(150), 0.0),
    CACHE_1("cache-1", Duration.ofMillis(500), 0.0),
    CACHE_2("cache-2", Duration.ofMillis(200), 0.0),
    DATABASE("database", Duration.ofMillis(800), 0.0),
    FILE_FLAKY("file-flaky", Duration.ZERO, 0.3);

    private final String wire;
    private final Duration defaultLatency;
    private final double defaultFailureRate;

    ServiceName(String wire, Duration defaultLatency, double defaultFailureRate) {
        this.wire = wire;
        this.defaultLatency = defaultLatency;
        this.defaultFailureRate = defaultFailureRate;
    }

    /** The name as users write it: {@code db}, {@code cache-1}, ... */
    public String wire() {
        return wire;
    }

    public Duration defaultLatency() {
        return defaultLatency;
    }

    public double defaultFailureRate() {
        return defaultFailureRate;
    }

    public static Optional<ServiceName> fromWire(String name) {
        for (ServiceName s : values()) {
            if (s.wire.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** {@code "db, file, ..."}: for error messages that list what is accepted. */
    public static String allWireNames() {
        return Arrays.stream(values()).map(ServiceName::wire).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return wire;
    }
}
