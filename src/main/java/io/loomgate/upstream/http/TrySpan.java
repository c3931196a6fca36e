package io.loomgate.upstream.http;

import io.loomgate.client.Origin;
import io.loomgate.core.call.CallSpans;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.trace.Clock;
import io.loomgate.trace.Span;
import io.loomgate.trace.TraceRoot;
import java.util.HashMap;
import java.util.Map;

/**
 * The client span of one HTTP exchange with an upstream (one try of a call, or a proxied request),
 * with the OpenTelemetry HTTP client attributes: its id is the parent id the upstream is sent in
 * {@code traceparent}, so the upstream's own spans hang beneath it. It ends when the answer's head
 * has come (a proxied body streams after it) or the exchange failed; a cancelled one is marked.
 */
final class TrySpan {

    private final TraceRoot root;
    private final String parent;
    private final TraceParent sent;
    private final Map<String, Object> attributes = new HashMap<>();
    private final long startNanos = System.nanoTime();
    private boolean ended;

    private TrySpan(TraceRoot root, TraceParent sent, UpstreamId upstream, String method, Origin origin, String target) {
        this.root = root;
        this.parent = CallSpans.parent(root);
        this.sent = sent;
        attributes.put("http.request.method", method);
        attributes.put("server.address", origin.host());
        attributes.put("server.port", (long) origin.port());
        int query = target.indexOf('?');
        attributes.put("url.full", (origin.tls().isPresent() ? "https://" : "http://") + origin.authority()
                + (query < 0 ? target : target.substring(0, query)));   // the query may hold a key: left out
        attributes.put("loomgate.upstream", upstream.value());
    }

    /** The span of an exchange about to start, or null when the request's spans are not recorded. */
    static TrySpan start(RequestContext ctx, TraceParent sent, UpstreamId upstream, String method, Origin origin, String target) {
        return ctx.trace().recording().map(root -> new TrySpan(root, sent, upstream, method, origin, target)).orElse(null);
    }

    /** The answer's head came with {@code status}. */
    void answered(int status) {
        attributes.put("http.response.status_code", (long) status);
        end(status >= 400, status >= 400 ? String.valueOf(status) : "", "");
    }

    /** No answer: {@code failure}, or cancelled when the thread was interrupted. */
    void failed(Throwable failure, boolean cancelled) {
        if (cancelled) {
            attributes.put("loomgate.cancelled", true);
        }
        end(true, cancelled ? "cancelled" : failure.getClass().getSimpleName(), cancelled ? "cancelled" : String.valueOf(failure.getMessage()));
    }

    private void end(boolean error, String errorType, String message) {
        if (ended) {
            return;
        }
        ended = true;
        if (error) {
            attributes.put("error.type", errorType);
        }
        root.record(new Span(root.traceId(), sent.parentId(), parent, String.valueOf(attributes.get("http.request.method")),
                Span.Kind.CLIENT, Clock.epochNanos(startNanos), Clock.epochNanos(System.nanoTime()), attributes, error,
                message.isEmpty() ? errorType : message));
    }
}
