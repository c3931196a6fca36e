package io.loomgate.call;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one request asks of its upstreams beyond the defaults: a latency to inject in place of the
 * configured one ({@code ?delay=db:3s}) and upstreams to fail on purpose ({@code ?fail=db}).
 */
public record Overrides(Map<ServiceId, Duration> delays, Set<ServiceId> failures) {

    public static final Overrides NONE = new Overrides(Map.of(), Set.of());

    public Overrides {
        delays = Map.copyOf(delays);
        failures = Set.copyOf(failures);
    }

    public Optional<Duration> delayOf(ServiceId service) {
        return Optional.ofNullable(delays.get(service));
    }

    public boolean fails(ServiceId service) {
        return failures.contains(service);
    }
}
