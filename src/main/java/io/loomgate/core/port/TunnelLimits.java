package io.loomgate.core.port;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A proxy route's {@code "tunnel"}: how long a tunnel (a WebSocket, any {@code Upgrade}) may stay
 * open with no byte either way, and how long it may stay open at all.
 *
 * @param idleTimeout the most it may carry nothing either way; empty: the upstream's {@code idleTimeout}
 * @param maxLifetime the most it may stay open; empty: no limit but the idle one
 */
public record TunnelLimits(Optional<Duration> idleTimeout, Optional<Duration> maxLifetime) {

    /** The upstream's idle timeout, and no lifetime limit. */
    public static final TunnelLimits DEFAULT = new TunnelLimits(Optional.empty(), Optional.empty());

    public TunnelLimits {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(maxLifetime, "maxLifetime");
    }
}
