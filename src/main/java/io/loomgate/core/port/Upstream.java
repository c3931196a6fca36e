package io.loomgate.core.port;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;

/**
 * The calling port every backend plugs into: one call, made on the calling thread, inside a
 * {@link RequestContext} that gives the request id and the deadline. A simulated service, an HTTP
 * service and a layer of the stack around either all look the same to the engine. Forwarding a
 * proxy route's request as it came is the other port, {@link Forwarder}. What an operator sees of
 * an upstream (its endpoints, its cache, its health checks) is not the core's, and not here.
 *
 * <p>A call must stop promptly when its thread is interrupted (that is how the engine cancels it)
 * and end with {@link InterruptedException}.
 */
@FunctionalInterface
public interface Upstream {

    /**
     * Makes one call for the current request.
     *
     * @throws UpstreamFailure      when the call fails; the message is safe to show a client
     * @throws InterruptedException when cancelled; the call stopped where it was
     */
    Value call() throws UpstreamFailure, InterruptedException;

    /**
     * Makes one call of the given shape (a compose call's method, path, headers and body). An
     * upstream that has no use for a shape makes its plain call.
     */
    default Value call(Call call) throws UpstreamFailure, InterruptedException {
        return call();
    }

    /**
     * Refuses, before any call is made, a request this upstream cannot serve (a query parameter out
     * of range, a value its URL cannot carry), by throwing an {@link io.loomgate.http.HttpError}
     * (a 400). Accepts everything by default.
     */
    default void check(RequestContext request) {
    }
}
