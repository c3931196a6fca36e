package io.loomgate.edge.listener;

import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;

/**
 * loomgate's server's connections and the tunnels through proxy routes, read once: open now; since
 * start, closed at once by {@code --max-connections} or by the limit per client address, closed
 * because a handshake or a head took too long, refused because a request broke HTTP/1.1's rules,
 * and requests whose client hung up before the answer. The JDK's server counts none of it, so there
 * it writes nothing ({@link #of}).
 */
public record ConnectionMetrics(int open, long refusedAtMax, long refusedPerAddress, long headTimeouts, long malformed,
                                long clientGone, int tunnelsOpen, int maxTunnels, long tunnelsRefused) implements MetricSet {

    /** {@code server}'s counts now; nothing on the JDK's server. */
    public static MetricSet of(GatewayServer server) {
        return server.serverStats().<MetricSet>map(c -> new ConnectionMetrics(c.open(), c.refusedAtMax(), c.refusedPerAddress(),
                c.headTimeouts(), c.malformed(), c.clientGone(), server.tunnels().open(), server.tunnels().max(),
                server.tunnels().refused())).orElse(MetricSet.NONE);
    }

    @Override
    public void prometheus(MetricSink w) {
        w.family("loomgate_server_connections", "gauge", "Client connections open now (loomgate's server).");
        w.sample("loomgate_server_connections", open);
        w.family("loomgate_server_connections_refused_total", "counter",
                "Connections closed as soon as accepted: over --max-connections, or over the limit per client address.");
        w.sample("loomgate_server_connections_refused_total", refusedAtMax, "reason", "max");
        w.sample("loomgate_server_connections_refused_total", refusedPerAddress, "reason", "per_address");
        w.family("loomgate_server_head_timeouts_total", "counter",
                "Connections closed because a TLS handshake or a request head took longer than --read-timeout.");
        w.sample("loomgate_server_head_timeouts_total", headTimeouts);
        w.family("loomgate_server_malformed_requests_total", "counter",
                "Requests refused because they broke HTTP/1.1's rules; their connections closed.");
        w.sample("loomgate_server_malformed_requests_total", malformed);
        w.family("loomgate_server_client_gone_total", "counter",
                "Requests whose client closed its connection before the answer; their work was cancelled.");
        w.sample("loomgate_server_client_gone_total", clientGone);
        w.family("loomgate_tunnels_open", "gauge", "Tunnels (WebSockets, any Upgrade) open through proxy routes now.");
        w.sample("loomgate_tunnels_open", tunnelsOpen);
        w.family("loomgate_tunnels_refused_total", "counter", "Upgrades refused with 503 because --max-tunnels were open.");
        w.sample("loomgate_tunnels_refused_total", tunnelsRefused);
    }

    @Override
    public void serverJson(JsonWriter w) {
        w.name("connections").beginObject().field("open", open).field("refusedAtMax", refusedAtMax)
                .field("refusedPerAddress", refusedPerAddress).field("headTimeouts", headTimeouts)
                .field("malformed", malformed).field("clientGone", clientGone)
                .field("tunnelsOpen", tunnelsOpen).field("maxTunnels", maxTunnels)
                .field("tunnelsRefused", tunnelsRefused).endObject();
    }

    @Override
    public void text(StringBuilder out) {
        out.append("\nConnections (loomgate's server)\n");
        out.append("Open: ").append(open).append('\n');
        out.append("Refused: ").append(refusedAtMax).append(" over --max-connections, ").append(refusedPerAddress)
                .append(" over the limit per address\n");
        out.append("Head Timeouts: ").append(headTimeouts).append('\n');
        out.append("Malformed Requests: ").append(malformed).append('\n');
        out.append("Clients Gone: ").append(clientGone).append('\n');
        out.append("Tunnels: ").append(tunnelsOpen).append(" open of ").append(maxTunnels).append(", ")
                .append(tunnelsRefused).append(" refused\n");
    }
}
