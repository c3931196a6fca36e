package io.loomgate.edge.server;

import io.loomgate.config.AddressRanges;
import java.time.Duration;
import java.util.Objects;

/**
 * What loomgate's server allows one connection and one client.
 *
 * @param readTimeout    the most a connection may take to finish its TLS handshake and a request's
 *                       head, counted from its first byte: a stalled one is closed
 * @param idleTimeout    the most a keep-alive connection may wait for its next request, and the most
 *                       any one read of a body or write of an answer may wait
 * @param maxConnections connections open at once; past it a new one is closed as soon as it is
 *                       accepted. 0 for no limit
 * @param maxPerAddress  connections open at once from one client address; past it a new one is
 *                       closed. 0 for no limit
 * @param unlimited      addresses the per-address limit leaves alone (the trusted proxies, whose
 *                       connections carry many clients)
 */
public record ServerLimits(Duration readTimeout, Duration idleTimeout, int maxConnections, int maxPerAddress,
                           AddressRanges unlimited) {

    /**
     * How many places beyond its own one a connection that carries a tunnel takes under
     * {@code maxConnections}: a tunnel's measured 70 KB over the 16 KB a connection is priced at on
     * this server (the configuration's {@code ConnectionBudget.TUNNEL_EXTRA}, which a test keeps equal to this).
     */
    public static final int TUNNEL_EXTRA = 4;

    /**
     * The same for an HTTP/2 connection: the bodies its windows may hold, a header block, HPACK's
     * tables, priced at 328 KiB beyond the place it has (the configuration's {@code ConnectionBudget.H2_EXTRA}).
     */
    public static final int H2_EXTRA = 21;

    /** The request body a server reads and throws away, when a handler left it unread, to keep the connection. */
    public static final long DRAIN_BYTES = 64 * 1024;

    public ServerLimits {
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(unlimited, "unlimited");
        if (maxConnections < 0 || maxPerAddress < 0) {
            throw new IllegalArgumentException("limits must be >= 0: " + maxConnections + ", " + maxPerAddress);
        }
    }

    /** Five seconds for a head, a minute idle, and no limit on connections: for tests and tools. */
    public static final ServerLimits DEFAULTS = new ServerLimits(Duration.ofSeconds(5), Duration.ofSeconds(60), 0, 0,
            AddressRanges.NONE);
}
