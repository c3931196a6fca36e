package io.loomgate.core.call;

import io.loomgate.http.Caller;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.RequestLedger;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What every call made for a request needs to know about it: its id, endpoint, deadline, query and
 * per-request {@link Overrides}. Bound once per request with {@link #callWith}; the subtasks of a
 * {@code StructuredTaskScope} inherit the binding, and anything else (a CompletableFuture task)
 * must bind it again.
 *
 * <pre>{@code
 * Aggregation a = RequestContext.callWith(ctx, () -> aggregator.run(route));
 * // ... and deep inside an upstream:
 * Duration left = RequestContext.current().remaining();
 * }</pre>
 *
 * <p>It is a view over the {@link Request} it serves, not a copy: the id, query, path parameters,
 * headers, caller and ledger are the request's own. What it adds is what the calls need beyond the
 * request: the route, the deadline, the overrides, the trace and the tries.
 *
 * @param request       the request served (its id, query, path parameters, headers, caller and ledger)
 * @param endpoint      the route's path
 * @param deadlineNanos {@link System#nanoTime()} by which the answer is due
 * @param timeout       the deadline as the client asked for it (or the default), for messages
 * @param overrides     injected delays and failures
 * @param trace         the request's trace context (the client's, or a new one), made on first use
 * @param attempts      the tries of retried calls, for the timeline
 */
public record RequestContext(Request request, String endpoint, long deadlineNanos, Duration timeout, Overrides overrides,
                             RequestTrace trace, Attempts attempts) {

    private static final ScopedValue<RequestContext> CURRENT = ScopedValue.newInstance();

    public RequestContext {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(overrides, "overrides");
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(attempts, "attempts");
    }

    /** The request id, for the call log, the logs and upstream headers. */
    public String requestId() {
        return request.id();
    }

    /** The request's query parameters, for upstreams that read their own. */
    public QueryParams query() {
        return request.query();
    }

    /** The path's parameters ({@code id=7} for {@code /users/{id}}), for templates. */
    public Map<String, String> params() {
        return request.params();
    }

    /** The request's headers, read-only, for upstreams that forward some. */
    public Headers headers() {
        return request.headers();
    }

    /** Who is calling (an API key's name, a JWT's claims), and what upstreams are told about it. */
    public Caller caller() {
        return request.caller();
    }

    /** Where its upstream calls add their time, and its stop reason is kept. */
    public RequestLedger ledger() {
        return request.ledger();
    }

    /** A context for work outside any HTTP request (tests, tools): no query, overrides or headers. */
    public static RequestContext of(String requestId, String endpoint, Duration timeout) {
        return of(requestId, endpoint, timeout, QueryParams.parse(null), Overrides.NONE);
    }

    /** A context without request headers, and with a new trace. */
    public static RequestContext of(String requestId, String endpoint, Duration timeout, QueryParams query,
                                    Overrides overrides) {
        return new RequestContext(Request.internal(requestId, query), endpoint, System.nanoTime() + timeout.toNanos(), timeout,
                overrides, new RequestTrace(null), new Attempts());
    }

    /** Runs {@code op} with {@code ctx} as the current context, on this thread and in the scopes it opens. */
    public static <T, X extends Throwable> T callWith(RequestContext ctx, ScopedValue.CallableOp<T, X> op) throws X {
        return ScopedValue.where(CURRENT, ctx).call(op);
    }

    /**
     * The context of the request this thread works for.
     *
     * @throws java.util.NoSuchElementException outside of {@link #callWith}
     */
    public static RequestContext current() {
        return CURRENT.get();
    }

    /** Time left until the deadline; zero or negative once it has passed. */
    public Duration remaining() {
        return Duration.ofNanos(deadlineNanos - System.nanoTime());
    }

    /** Why the request's work was stopped, if it was: recorded once, on its ledger. */
    public java.util.Optional<io.loomgate.http.StopReason> stopReason() {
        return ledger().stopReason();
    }

    public boolean deadlinePassed() {
        return deadlineNanos - System.nanoTime() <= 0;
    }
}
