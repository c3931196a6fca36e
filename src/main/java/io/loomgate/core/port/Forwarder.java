package io.loomgate.core.port;

import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.http.Response;

/**
 * The forwarding port: a proxy route's request, forwarded as it came, and the upstream's answer,
 * its body streamed as it arrives. Only HTTP upstreams forward; the route file lets no other kind
 * behind a proxy route. The calling port is {@link Upstream}; the engine never forwards.
 */
@FunctionalInterface
public interface Forwarder {

    /**
     * @throws UpstreamFailure      when no answer came: unreachable, malformed, or too late
     *                              ({@link UpstreamFailure#timedOut()})
     * @throws InterruptedException when cancelled
     */
    Response forward(Forward request) throws UpstreamFailure, InterruptedException;
}
