package io.loomgate.edge.listener;

import io.loomgate.http2.Flood;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.EnumMap;
import java.util.Map;

/**
 * HTTP/2 on loomgate's server, read once: connections and streams served since start, and the
 * connections it ended with {@code GOAWAY ENHANCE_YOUR_CALM}, by {@link Flood}. The JDK's
 * server speaks only HTTP/1.1, so there it writes nothing ({@link #of}).
 */
public record Http2Metrics(long connections, long streams, Map<Flood, Long> floods) implements MetricSet {

    public static MetricSet of(GatewayServer server) {
        return server.serverStats().<MetricSet>map(c -> {
            Map<Flood, Long> floods = new EnumMap<>(Flood.class);
            for (Flood f : Flood.values()) {
                floods.put(f, c.floods(f));
            }
            return new Http2Metrics(c.h2Connections(), c.h2Streams(), floods);
        }).orElse(MetricSet.NONE);
    }

    private long calm() {
        return floods.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void prometheus(MetricSink w) {
        w.family("loomgate_http2_connections_total", "counter", "HTTP/2 connections served (h2c with prior knowledge, or h2 by ALPN).");
        w.sample("loomgate_http2_connections_total", connections);
        w.family("loomgate_http2_streams_total", "counter", "HTTP/2 streams opened: each a request.");
        w.sample("loomgate_http2_streams_total", streams);
        w.family("loomgate_http2_enhance_your_calm_total", "counter",
                "HTTP/2 connections ended with GOAWAY ENHANCE_YOUR_CALM, by the flood: rapid_reset, continuation, settings, ping, priority, empty_frames, window_update.");
        floods.forEach((f, n) -> w.sample("loomgate_http2_enhance_your_calm_total", n, "reason", f.label()));
    }

    @Override
    public void serverJson(JsonWriter w) {
        w.name("http2").beginObject().field("connections", connections).field("streams", streams)
                .field("enhanceYourCalm", calm()).endObject();
    }

    @Override
    public void text(StringBuilder out) {
        out.append("\nHTTP/2 (loomgate's server)\n");
        out.append("Connections: ").append(connections).append(", streams: ").append(streams)
                .append(", ended for a flood: ").append(calm()).append('\n');
    }
}
