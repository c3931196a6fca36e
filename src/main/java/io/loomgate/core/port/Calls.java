package io.loomgate.core.port;

import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;

/**
 * What the core asks of the upstreams, and all it knows of them: a call to one by its id, plain or
 * shaped, and the budget its extra copies draw on. The registry of upstreams implements it
 * (the {@code Upstreams} of the upstream layer); the fan-out and compose engines take this port, never
 * the registry, so the core sits below the upstreams it calls.
 *
 * <pre>{@code
 * Value v = calls.call(UpstreamId.of("db"));                       // inside the request's context
 * Value posted = calls.call(UpstreamId.of("orders"), shapedCall);
 * }</pre>
 */
public interface Calls {

    /**
     * One call to {@code id} for the current request, on the calling thread.
     *
     * @throws UpstreamFailure      when the call fails; the message is safe to show a client
     * @throws InterruptedException when cancelled
     */
    Value call(UpstreamId id) throws UpstreamFailure, InterruptedException;

    /** One call of {@code call}'s shape (a compose call's method, path, headers and body) to {@code id}. */
    Value call(UpstreamId id, Call call) throws UpstreamFailure, InterruptedException;

    /** The budget {@code id}'s retries, and the hedge backups sent to it, draw on. */
    RetryBudget budget(UpstreamId id);
}
