package io.loomgate.demo;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The simulated services a {@code "kind": "simulated"} upstream can run: what a call does once
 * its injected latency has been slept. Sleep-like services return a fixed text (a route file may
 * give another {@code value}); {@code file} and {@code file-flaky} read the sample file; {@code compute}
 * sums primes; {@code dataset} answers from a keyed table and {@code created} echoes a posted object
 * with a new id (the bundled backend's API).
 */
public enum SimulatedService {
    DB("db", "DB call completed"),
    FILE("file", null),
    COMPUTE("compute", null),
    CACHE("cache", "cache hit"),
    CACHE_1("cache-1", "cache-1 hit"),
    CACHE_2("cache-2", "cache-2 hit"),
    DATABASE("database", "database row"),
    FILE_FLAKY("file-flaky", null),
    DATASET("dataset", null),
    CREATED("created", null);

    private final String wire;
    private final String text;

    SimulatedService(String wire, String text) {
        this.wire = wire;
        this.text = text;
    }

    String wire() {
        return wire;
    }

    /** The text a sleep-like service returns; empty for the file and compute services. */
    Optional<String> text() {
        return Optional.ofNullable(text);
    }

    boolean readsFile() {
        return this == FILE || this == FILE_FLAKY;
    }

    static Optional<SimulatedService> fromWire(String name) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(name)).findFirst();
    }

    static String allWireNames() {
        return Arrays.stream(values()).map(SimulatedService::wire).collect(Collectors.joining(", "));
    }
}
