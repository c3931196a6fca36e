package io.loomgate.edge.server;

import java.util.concurrent.atomic.AtomicInteger;
import io.loomgate.http2.Flood;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** What loomgate's server counts: its connections, the ones it refused or dropped, and the clients that went away mid-request. */
public final class ServerStats {

    final AtomicInteger open = new AtomicInteger();
    /** Connections that carry a tunnel now: each costs {@link ServerLimits#TUNNEL_EXTRA} more under the limit. */
    final AtomicInteger tunnels = new AtomicInteger();
    final LongAdder accepted = new LongAdder();
    final LongAdder refusedAtMax = new LongAdder();
    final LongAdder refusedPerAddress = new LongAdder();
    final LongAdder headTimeouts = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder clientGone = new LongAdder();
    /** HTTP/2 connections served and streams opened on them; the connections ended for a flood are counted by kind. */
    final LongAdder h2Connections = new LongAdder();
    /** HTTP/2 connections open now: each costs {@link ServerLimits#H2_EXTRA} more under the limit. */
    final AtomicInteger h2Open = new AtomicInteger();
    final LongAdder h2Streams = new LongAdder();
    private final Map<Flood, LongAdder> floods = new EnumMap<>(Flood.class);
    /** Virtual threads the server started: one a connection, one a late hang-up watch ({@link ClientWatch}). */
    final LongAdder threadsStarted;

    ServerStats(LongAdder threadsStarted) {
        for (Flood f : Flood.values()) {
            floods.put(f, new LongAdder());
        }
        this.threadsStarted = threadsStarted;
    }

    /** Connections open now. */
    public int open() {
        return open.get();
    }

    /** Connections that carry a tunnel now (after a {@code 101}). */
    public int tunnels() {
        return tunnels.get();
    }

    /** Connections accepted since start. */
    public long accepted() {
        return accepted.sum();
    }

    /** Connections closed at once because {@code --max-connections} were open. */
    public long refusedAtMax() {
        return refusedAtMax.sum();
    }

    /** Connections closed at once because their address had its share open already. */
    public long refusedPerAddress() {
        return refusedPerAddress.sum();
    }

    /** Connections closed because a TLS handshake or a request head took longer than the read timeout. */
    public long headTimeouts() {
        return headTimeouts.sum();
    }

    /** Requests refused because they broke HTTP/1.1's rules, their connection then closed. */
    public long malformed() {
        return malformed.sum();
    }

    /** Requests whose client closed its connection before the answer, so their work was cancelled. */
    public long clientGone() {
        return clientGone.sum();
    }

    /** HTTP/2 connections served since start (h2c with prior knowledge, or h2 by ALPN). */
    public long h2Connections() {
        return h2Connections.sum();
    }

    /** HTTP/2 streams opened since start: requests. */
    public long h2Streams() {
        return h2Streams.sum();
    }

    /** HTTP/2 connections ended with GOAWAY ENHANCE_YOUR_CALM for {@code flood}. */
    public long floods(Flood flood) {
        return floods.get(flood).sum();
    }

    void flood(Flood flood) {
        floods.get(flood).increment();
    }
}
