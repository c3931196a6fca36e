package io.loomgate.load;

import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.Optional;

/**
 * The latency an endpoint is built to have, from the services' default latencies: the basis of its
 * Little's-law bound (connections / latency). {@code /aggregate} waits for its slowest part, and
 * {@code /first-success} for its fastest. Endpoints whose time is CPU or I/O, not a designed sleep,
 * have none.
 */
final class DesignedLatency {

    private DesignedLatency() {
    }

    static Optional<Duration> of(String endpoint) {
        if (endpoint.startsWith("/block?ms=")) {
            return Optional.of(Duration.ofMillis(Long.parseLong(endpoint.substring("/block?ms=".length()))));
        }
        return switch (endpoint) {
            case "/block" -> Optional.of(ServiceName.DB.defaultLatency());
            case "/cache" -> Optional.of(ServiceName.CACHE.defaultLatency());
            case "/aggregate", "/aggregate-cf", "/aggregate-old", "/aggregate-with-fallback", "/multi-aggregate" ->
                    Optional.of(ServiceName.DB.defaultLatency());
            case "/first-success" -> Optional.of(min(ServiceName.CACHE_1, ServiceName.CACHE_2, ServiceName.DATABASE));
            default -> Optional.empty();
        };
    }

    /** The bare server's endpoint that does the same waiting: {@code /block?ms=N}, or {@code /hello}. */
    static String bareEquivalent(String endpoint) {
        return of(endpoint).map(d -> "/block?ms=" + d.toMillis()).orElse("/hello");
    }

    private static Duration min(ServiceName... services) {
        Duration min = services[0].defaultLatency();
        for (ServiceName s : services) {
            min = s.defaultLatency().compareTo(min) < 0 ? s.defaultLatency() : min;
        }
        return min;
    }
}
