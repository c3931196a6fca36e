package io.loomgate.core.call;

import io.loomgate.http.Caller;
import io.loomgate.http.Headers;
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
 * @param requestId     the request id, for the call log, the logs and upstream headers
 * @param endpoint      the route's path
 * @param deadlineNanos {@link System#nanoTime()} by which the answer is due
 * @param timeout       the deadline as the client asked for it (or the default), for messages
 * @param query         the request's query parameters, for upstreams that read their own
 * @param params        the path's parameters ({@code id=7} for {@code /users/{id}}), for templates
 * @param overrides     injected delays and failures
 * @param headers       the request's headers, read-only, for upstreams that forward some
 * @param trace         the request's trace context (the client's, or a new one), made on first use
 * @param caller        who is calling (an API key's name, a JWT's claims), and what upstreams are told about it
 * @param attempts      the tries of retried calls, for the timeline
 * @param ledger        where its upstream calls add their time, for the access log
 */
public record RequestContext(String requestId, String endpoint, long deadlineNanos, Duration timeout,
                             QueryParams query, Map<String, String> params, Overrides overrides, Headers headers,
                             RequestTrace trace, Caller caller, Attempts attempts, RequestLedger ledger) {

    private static final ScopedValue<RequestContext> CURRENT = ScopedValue.newInstance();

    public RequestContext {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(query, "query");
        params = Map.copyOf(params);
        Objects.requireNonNull(overrides, "overrides");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(attempts, "attempts");
        Objects.requireNonNull(ledger, "ledger");
    }

    /** A context for work outside any HTTP request (tests, tools): no query, overrides or headers. */
    public static RequestContext of(String requestId, String endpoint, Duration timeout) {
        return of(requestId, endpoint, timeout, QueryParams.parse(null), Overrides.NONE);
    }

    /** A context without request headers, and with a new trace. */
    public static RequestContext of(String requestId, String endpoint, Duration timeout, QueryParams query,
                                    Overrides overrides) {
        return new RequestContext(requestId, endpoint, System.nanoTime() + timeout.toNanos(), timeout, query, Map.of(),
                overrides, Headers.EMPTY, new RequestTrace(null), Caller.ANONYMOUS, new Attempts(), new RequestLedger());
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
        return ledger.stopReason();
    }

    public boolean deadlinePassed() {
        return deadlineNanos - System.nanoTime() <= 0;
    }
}
