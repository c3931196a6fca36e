package io.loomgate.edge.pipeline;

import io.loomgate.core.call.TraceParent;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Events;
import io.loomgate.trace.Clock;
import io.loomgate.trace.Span;
import io.loomgate.trace.TraceRoot;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code --otlp-endpoint}: places each request in a trace as it arrives (the client's
 * {@code traceparent}, or a new trace; sampled as its parent was, or for {@code --trace-sample} of
 * new traces) and, at its end, records its server span with the OpenTelemetry HTTP server
 * attributes. The calls the request makes are children of that span.
 */
final class TraceFilter implements Filter {

    private final Tracing tracing;

    TraceFilter(Tracing tracing) {
        this.tracing = tracing;
    }

    @Override
    public String name() {
        return "trace";
    }

    @Override
    public Response onRequest(Visit v) {
        v.ledger().root(TraceParent.root(v.headers().first("traceparent"), tracing.sampleRatio(), tracing.sink()));
        return null;
    }

    @Override
    public void onEnd(Visit v) {
        TraceRoot root = v.ledger().root();
        if (root == null || !root.sampled()) {
            return;
        }
        boolean matched = !v.routeKey().equals(Events.UNMATCHED);
        Map<String, Object> a = new HashMap<>();
        a.put("http.request.method", v.method());
        if (matched) {
            a.put("http.route", v.routeKey());
        }
        a.put("url.path", v.exchange().uri().getRawPath());
        a.put("http.response.status_code", (long) v.answering().status());
        InetAddress client = v.remote() == null ? null : ClientAddress.of(v.remote(), v.headers(), v.trustedProxies());
        if (client != null) {
            a.put("client.address", client.getHostAddress());
        }
        String agent = v.headers().first("User-Agent");
        if (agent != null) {
            a.put("user_agent.original", agent.length() > 200 ? agent.substring(0, 200) : agent);
        }
        a.put("loomgate.request_id", v.id());
        boolean error = v.answering().status() >= 500 || !v.answering().delivery().whole();
        String type = v.answering().delivery().whole() ? String.valueOf(v.answering().status()) : v.answering().delivery().failure();
        if (error) {
            a.put("error.type", type);
        }
        root.record(new Span(root.traceId(), root.spanId(), root.parentId(), matched ? v.method() + " " + v.routeKey() : v.method(),
                Span.Kind.SERVER, Clock.epochNanos(v.arrival()), Clock.epochNanos(System.nanoTime()), a, error,
                error ? type : ""));
    }
}
