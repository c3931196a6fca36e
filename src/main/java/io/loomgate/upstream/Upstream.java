package io.loomgate.upstream;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;

/**
 * The calling port every backend plugs into: one call, made on the calling thread, inside a
 * {@link RequestContext} that gives the request id and the deadline. A simulated service, an HTTP
 * service and a layer of the stack around either all look the same to the engine. Forwarding a
 * proxy route's request as it came is the other port, {@link Forwarder}.
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

    /** Its endpoints and what is known of each now, for the admin API and the metrics; none for an upstream with one. */
    default java.util.List<EndpointState> endpoints() {
        return java.util.List.of();
    }

    /** Its cache of answers ({@code "cache"}), when it has one. */
    default java.util.Optional<io.loomgate.upstream.cache.CachedCalls> cache() {
        return java.util.Optional.empty();
    }

    /** True when its calls go to one of several endpoints (which it notes in {@link EndpointNote}). */
    default boolean replicated() {
        return false;
    }

    /** Starts what it runs on its own (active health checks), once its plan serves; nothing by default. */
    default void activate() {
    }

    /** Stops what {@link #activate} started: no plan serves it any more. */
    default void deactivate() {
    }
}
