package io.loomgate.api;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.fanout.Aggregator;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Handler;
import io.loomgate.upstream.Forward;
import io.loomgate.upstream.Forwarder;
import io.loomgate.upstream.Upstreams;
import java.time.Duration;

/**
 * A reverse-proxy route ({@code "policy": "proxy"}): forwards the method, the raw path below the
 * route's prefix, the query, the headers and the body to one HTTP upstream, through the same
 * decorators as every call (recording, breaker, faults), and streams its answer back. The deadline
 * covers the wait for the answer's head; the body then flows at the client's pace, with the
 * upstream's idle timeout between bytes. An upstream that cannot be reached, or answers something
 * malformed, is a 502; one that does not answer in time, a 504.
 */
final class ProxyEndpoint implements Handler {

    private final ProxyRoute route;
    private final Forwarder upstream;
    private final Aggregator aggregator;

    ProxyEndpoint(ProxyRoute route, Upstreams upstreams, Aggregator aggregator) {
        this.route = route;
        this.upstream = upstreams.forwarder(route.upstream());
        this.aggregator = aggregator;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        RequestContext ctx = RequestContexts.of(request, route.path(), route.timeout(), Overrides.NONE);
        Forward forward = new Forward(request, target(request));
        return RequestContext.callWith(ctx, () -> forward(forward));
    }

    /** Forwards, and counts the exchange with the upstream's calls: a success below 500, a failure from 500 up. */
    private Response forward(Forward forward) throws InterruptedException {
        long start = System.nanoTime();
        Outcome.Kind outcome = Outcome.Kind.FAILED;
        try {
            Response response = upstream.forward(forward);
            outcome = response.status() >= 500 ? Outcome.Kind.FAILED : Outcome.Kind.SUCCESS;
            return response;
        } catch (UpstreamFailure f) {
            outcome = f.timedOut() ? Outcome.Kind.TIMEOUT : Outcome.Kind.FAILED;
            throw f.timedOut() ? new HttpError(504, "gateway_timeout", f.getMessage())
                    : new HttpError(502, "bad_gateway", f.getMessage());
        } catch (InterruptedException e) {
            outcome = Outcome.Kind.CANCELLED;
            throw e;
        } finally {
            aggregator.record(route.upstream(), outcome, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /**
     * The raw path below the prefix, and the raw query. The prefix is cut by segments, not by
     * characters: the router matched the decoded path, and {@code /%61pi/x} must forward {@code x},
     * as {@code /api/x} does (encoded slashes are refused, so raw and decoded segments line up).
     */
    private String target(Request request) {
        String raw = request.target().getRawPath();
        int at = 0;
        for (int slashes = route.prefixSlashes(); slashes > 0 && at >= 0; slashes--) {
            at = raw.indexOf('/', at) + 1;
        }
        String suffix = at > 0 ? raw.substring(at) : "";
        String query = request.target().getRawQuery();
        return query == null ? suffix : suffix + "?" + query;
    }
}
