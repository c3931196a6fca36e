package io.loomgate.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How the HTTP server listens, schedules requests and protects itself.
 *
 * @param host          bind address
 * @param port          listening port, 0 for any free one
 * @param threads       virtual thread per request, or a platform pool
 * @param pool          platform pool size (unused in virtual mode)
 * @param backlog       TCP accept backlog
 * @param shutdownGrace how long in-flight requests may finish once the server stops accepting
 * @param drainDelay    how long the server keeps accepting and serving after shutdown begins, while
 *                      {@code /readyz} already says 503, so load balancers stop sending first
 * @param maxInflight   requests served at once before new ones are shed with 503; 0 is no limit
 * @param readTimeout   time a new connection has to finish its TLS handshake and send a request head
 *                      (whole seconds; the JDK server times the body with it too)
 * @param idleTimeout   idle keep-alive connections are closed after this (whole seconds)
 * @param maxConnections connections held at once; past it a new one is closed at once
 * @param server        which implementation of the server API listens
 * @param maxPerAddress connections one client address holds at once (loomgate's server only); 0 for no limit
 * @param maxTunnels    tunnels (a WebSocket, any {@code Upgrade} through a proxy route) open at once
 */
public record ServerOptions(String host, int port, ThreadMode threads, int pool, int backlog,
                            Duration shutdownGrace, Duration drainDelay, int maxInflight, Duration readTimeout,
                            Duration idleTimeout, int maxConnections, ServerKind server, int maxPerAddress, int maxTunnels) {

    public ServerOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(drainDelay, "drainDelay");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in 0..65535: " + port);
        }
        if (pool < 1) {
            throw new IllegalArgumentException("pool must be >= 1: " + pool);
        }
        if (backlog < 1) {
            throw new IllegalArgumentException("backlog must be >= 1: " + backlog);
        }
        if (maxInflight < 0) {
            throw new IllegalArgumentException("maxInflight must be >= 0: " + maxInflight);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1: " + maxConnections);
        }
        Objects.requireNonNull(server, "server");
        if (maxPerAddress < 0) {
            throw new IllegalArgumentException("maxPerAddress must be >= 0: " + maxPerAddress);
        }
        if (maxTunnels < 0) {
            throw new IllegalArgumentException("maxTunnels must be >= 0: " + maxTunnels);
        }
    }

    /** The mode as the listening line and /health print it: {@code threads=platform pool=200}. */
    public String describeThreads() {
        return threads == ThreadMode.PLATFORM
                ? "threads=platform pool=" + pool
                : "threads=virtual";
    }

    /** The same options with {@code kind} listening. */
    public ServerOptions withServer(ServerKind kind) {
        return new ServerOptions(host, port, threads, pool, backlog, shutdownGrace, drainDelay, maxInflight, readTimeout,
                idleTimeout, maxConnections, kind, maxPerAddress, maxTunnels);
    }
}
