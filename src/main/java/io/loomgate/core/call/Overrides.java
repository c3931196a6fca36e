package io.loomgate.core.call;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one request asks of its upstreams beyond the defaults: a latency to inject in place of the
 * configured one ({@code ?delay=db:3s}) and upstreams to fail on purpose ({@code ?fail=db}).
 */
public record Overrides(Map<UpstreamId, Duration> delays, Set<UpstreamId> failures) {

    public static final Overrides NONE = new Overrides(Map.of(), Set.of());

    public Overrides {
        delays = Map.copyOf(delays);
        failures = Set.copyOf(failures);
    }

    public Optional<Duration> delayOf(UpstreamId service) {
        return Optional.ofNullable(delays.get(service));
    }

    public boolean fails(UpstreamId service) {
        return failures.contains(service);
    }
}
