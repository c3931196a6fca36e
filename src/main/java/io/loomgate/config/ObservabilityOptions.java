package io.loomgate.config;

import java.time.Duration;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What loomgate prints and exposes about itself.
 *
 * @param metricsLog     interval of the {@code [metrics]} log line; zero turns it off
 * @param accessLog      one log line per request: off, text or JSON
 * @param accessLogFile  where the access log goes instead of the console (appended, reopened on SIGUSR1)
 * @param debugEndpoints serve {@code /debug/threads}
 * @param adminPort      where the operator endpoints get a listener of their own (0: any free
 *                       port); empty keeps them on the main port
 * @param adminHost      the admin listener's bind address: loopback unless asked otherwise, so
 *                       the operator pages are never public by accident
 * @param adminNames     the {@code Host} names the admin listener answers besides loopback and its bind address
 * @param otlpEndpoint   where traces go (OTLP over HTTP); empty: no tracing
 * @param traceSample    the share of new traces recorded
 */
public record ObservabilityOptions(Duration metricsLog, AccessLogMode accessLog, Optional<Path> accessLogFile,
                                   boolean debugEndpoints, OptionalInt adminPort, String adminHost, java.util.List<String> adminNames,
                                   Optional<java.net.URI> otlpEndpoint, double traceSample) {

    public ObservabilityOptions {
        Objects.requireNonNull(metricsLog, "metricsLog");
        Objects.requireNonNull(accessLog, "accessLog");
        Objects.requireNonNull(accessLogFile, "accessLogFile");
        Objects.requireNonNull(adminPort, "adminPort");
        Objects.requireNonNull(adminHost, "adminHost");
        adminNames = java.util.List.copyOf(adminNames);
        Objects.requireNonNull(otlpEndpoint, "otlpEndpoint");
    }
}
