package io.loomgate.api;

import io.loomgate.core.fanout.Aggregator;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Handler;
import io.loomgate.upstream.Forward;

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
    private final Aggregator aggregator;

    ProxyEndpoint(ProxyRoute route, Aggregator aggregator) {
        this.route = route;
        this.aggregator = aggregator;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        RequestContext ctx = RequestContexts.of(request, route.path(), route.timeout(), Overrides.NONE);
        Forward forward = new Forward(request, target(request));
        return RequestContext.callWith(ctx, () -> forward(forward));
    }

    private Response forward(Forward forward) throws InterruptedException {
        try {
            return aggregator.forward(route.upstream(), forward);
        } catch (UpstreamFailure f) {
            throw f.timedOut() ? new HttpError(504, "gateway_timeout", f.getMessage())
                    : new HttpError(502, "bad_gateway", f.getMessage());
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
