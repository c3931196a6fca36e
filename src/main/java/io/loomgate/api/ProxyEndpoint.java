package io.loomgate.api;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Events;
import io.loomgate.edge.routing.Handler;
import io.loomgate.upstream.BufferedBody;
import io.loomgate.core.port.Forward;
import io.loomgate.core.port.Forwarder;
import io.loomgate.upstream.Upstreams;

/**
 * A reverse-proxy route ({@code "policy": "proxy"}): forwards the method, the raw path below the
 * route's prefix, the query, the headers and the body to one HTTP upstream, through the same
 * decorators as every call (recording, breaker, faults), and streams its answer back. A small
 * request body is read first ({@link BufferedBody}); the deadline covers the wait for the answer's
 * head from the request body's end; the answer's body then flows at the client's pace, with the
 * upstream's idle timeout between bytes. An upstream that cannot be reached, or answers something
 * malformed, is a 502; one that does not answer in time, a 504.
 */
final class ProxyEndpoint implements Handler {

    private final ProxyRoute route;
    private final Forwarder upstream;
    private final Events events;

    ProxyEndpoint(ProxyRoute route, Upstreams upstreams, Events events) {
        this.route = route;
        this.upstream = upstreams.forwarder(route.upstream());
        this.events = events;
    }

    @Override
    public Response handle(Request asked) throws InterruptedException {
        Request request = BufferedBody.read(asked, route.rules().maxBodyBytes());   // a small body whole, before any upstream
        RequestContext ctx = RequestContexts.of(request, route.path(), route.timeout(), Overrides.NONE, System.nanoTime());
        String raw = request.target().getRawPath();
        String below = below(raw);
        String prefix = raw.substring(0, raw.length() - below.length());
        String rewritten = route.rules().rewrite().map(r -> r.apply(below)).orElse(below);
        String query = request.target().getRawQuery();
        CountedBody counted = new CountedBody(request.body());
        Forward forward = new Forward(request.withBody(counted), query == null ? rewritten : rewritten + "?" + query, prefix,
                route.rules());
        return RequestContext.callWith(ctx, () -> forward(forward, ctx, counted));
    }

    /**
     * Forwards, and tells the events once how the exchange went ({@link ProxiedTimeline}: a success
     * below 500, a failure from 500 up or when the body broke off), with what it moved, once its
     * body has: the metrics, the timeline and the access log all hear it from that one answer.
     */
    private Response forward(Forward forward, RequestContext ctx, CountedBody in) throws InterruptedException {
        long start = System.nanoTime();
        Outcome outcome = new Outcome.Failed(route.upstream() + ": unexpected error");
        ProxiedTimeline timeline = new ProxiedTimeline(route, forward.request(), ctx, events, start);
        Response response = null;
        try {
            response = upstream.forward(forward);
            outcome = Outcome.answered(route.upstream(), response.status());
            return timeline.whenWritten(response, outcome, in);
        } catch (UpstreamFailure f) {
            outcome = f.outcome();
            throw f.timedOut() ? new HttpError(504, "gateway_timeout", f.getMessage())
                    : new HttpError(502, "bad_gateway", f.getMessage());
        } catch (HttpError e) {   // refused before an answer: a body too large, a value that cannot be sent
            outcome = new Outcome.Failed(e.getMessage(), java.util.OptionalInt.of(e.status()));
            throw e;
        } catch (InterruptedException e) {
            outcome = Outcome.interrupted(ctx);
            throw e;
        } finally {
            if (response == null) {
                timeline.failed(outcome, in);
            }
        }
    }

    /**
     * The raw path below the prefix. The prefix is cut by segments, not by
     * characters: the router matched the decoded path, and {@code /%61pi/x} must forward {@code x},
     * as {@code /api/x} does (encoded slashes are refused, so raw and decoded segments line up).
     */
    private String below(String raw) {
        int at = 0;
        for (int slashes = route.prefixSlashes(); slashes > 0 && at >= 0; slashes--) {
            at = raw.indexOf('/', at) + 1;
        }
        return at > 0 ? raw.substring(at) : "";
    }
}
