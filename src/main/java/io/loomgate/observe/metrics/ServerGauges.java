package io.loomgate.observe.metrics;

import java.util.Optional;

/** What the metrics read from the HTTP server, without knowing which server it is. */
public interface ServerGauges {

    /** Exchanges the server is working on now. */
    long inFlight();

    /** Requests refused by the admission limit since start. */
    long shed();

    /** The admission limit; 0 for none. */
    int maxInflight();

    /** The platform request pool, or empty in virtual mode. */
    Optional<Pool> pool();

    /** loomgate's server's connection counts; empty on the JDK's, which counts none. */
    default Optional<Connections> connections() {
        return Optional.empty();
    }

    /**
     * loomgate's server's connections: open now; since start, closed at once by {@code --max-connections}
     * or by the limit per client address, closed because a handshake or a head took too long, refused
     * because a request broke HTTP/1.1's rules, and requests whose client hung up before the answer.
     */
    record Connections(int open, long refusedAtMax, long refusedPerAddress, long headTimeouts, long malformed,
                       long clientGone, Tunnels tunnels) {
    }

    /** Tunnels through proxy routes: open now, the most allowed ({@code --max-tunnels}), refused since start. */
    record Tunnels(int open, int max, long refused) {
    }

    /** The platform request pool: its size, threads busy now, and requests waiting for one. */
    record Pool(int size, int active, int queued) {
    }
}
