package io.loomgate.upstream.http;

import io.loomgate.client.OriginStats;
import io.loomgate.json.JsonWriter;
import io.loomgate.observe.MetricSet;
import io.loomgate.observe.MetricSink;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The http upstreams' own connections, by origin (the client's pool key): {@code
 * loomgate_upstream_connections_*} and {@code loomgate_upstream_http2_*}, and {@code
 * upstreamConnections} in the JSON form. The calls on them are counted per upstream elsewhere; these
 * say how the connections under those calls are used: opened against reused, HTTP/2 streams
 * sharing a connection, streams reset and refused.
 */
record ClientConnectionMetrics(List<OriginStats> origins) implements MetricSet {

    ClientConnectionMetrics {
        origins = List.copyOf(origins);
    }

    @Override
    public void prometheus(MetricSink w) {
        if (origins.isEmpty()) {
            return;
        }
        String opened = "loomgate_upstream_connections_opened_total";
        w.family(opened, "counter", "Connections opened to each upstream origin, by the protocol they speak (a reused one is not counted again).");
        origins.forEach(o -> {
            w.sample(opened, o.http1Opened(), "origin", o.origin(), "protocol", "http/1.1");
            w.sample(opened, o.h2Opened(), "origin", o.origin(), "protocol", "h2");
        });
        family(w, "loomgate_upstream_connections_idle", "gauge", "HTTP/1.1 connections idle in the pool now, to each upstream origin.",
                OriginStats::http1Idle);
        family(w, "loomgate_upstream_http2_connections", "gauge", "HTTP/2 connections open now, to each upstream origin.", OriginStats::h2Open);
        family(w, "loomgate_upstream_http2_streams", "gauge", "HTTP/2 streams open now, to each upstream origin, over all its connections.",
                OriginStats::h2Streams);
        family(w, "loomgate_upstream_http2_streams_reset_total", "counter",
                "HTTP/2 streams loomgate reset (RST_STREAM): a cancelled call, a hedge's loser, an answer not read to its end.",
                OriginStats::h2Resets);
        family(w, "loomgate_upstream_http2_streams_refused_total", "counter",
                "HTTP/2 streams the upstream refused unprocessed (REFUSED_STREAM, or above its GOAWAY).", OriginStats::h2Refused);
    }

    private void family(MetricSink w, String name, String type, String help, ToDoubleFunction<OriginStats> value) {
        w.family(name, type, help);
        origins.forEach(o -> w.sample(name, value.applyAsDouble(o), "origin", o.origin()));
    }

    @Override
    public void topJson(JsonWriter w) {
        if (origins.isEmpty()) {
            return;
        }
        w.name("upstreamConnections").beginObject();
        origins.forEach(o -> w.name(o.origin()).beginObject()
                .field("http1Opened", o.http1Opened()).field("http1Idle", o.http1Idle())
                .field("h2Opened", o.h2Opened()).field("h2Open", o.h2Open()).field("h2Streams", o.h2Streams())
                .field("h2Resets", o.h2Resets()).field("h2Refused", o.h2Refused()).endObject());
        w.endObject();
    }

    @Override
    public void text(StringBuilder out) {
        if (origins.isEmpty()) {
            return;
        }
        out.append("\nUpstream connections (opened / idle; HTTP/2: opened / open / streams / reset / refused)\n");
        origins.forEach(o -> out.append(o.origin()).append(": ").append(o.http1Opened()).append(" / ").append(o.http1Idle())
                .append("; ").append(o.h2Opened()).append(" / ").append(o.h2Open()).append(" / ").append(o.h2Streams())
                .append(" / ").append(o.h2Resets()).append(" / ").append(o.h2Refused()).append('\n'));
    }
}
