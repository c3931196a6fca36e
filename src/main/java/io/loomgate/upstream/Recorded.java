package io.loomgate.upstream;

import io.loomgate.core.port.Forward;
import io.loomgate.core.call.CallSpans;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.StopReason;
import io.loomgate.http.Response;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.observe.event.Events;

/**
 * The outermost layer: tells the events every call once (in flight while it runs, then its outcome
 * and times), for the {@link CallLog}. An interrupt is {@code timeout} once the request's deadline
 * has passed and {@code cancelled} before it ({@link Outcome#interrupted}).
 */
final class Recorded implements Layered {

    private final UpstreamId id;
    private final Layered inner;
    private final Events events;

    Recorded(UpstreamId id, Layered inner, Events events) {
        this.id = id;
        this.inner = inner;
        this.events = events;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return call(Call.PLAIN);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        long started = start();
        String span = ctx.trace().recording().isPresent() ? TraceParent.newSpanId() : null;
        Outcome outcome = null;
        try {
            Value value = span == null ? inner.call(call) : traced(span, () -> inner.call(call));
            outcome = new Outcome.Success(value);
            return value;
        } catch (UpstreamFailure f) {
            outcome = new Outcome.Failed(f.getMessage(), f.status());
            throw f;
        } catch (InterruptedException e) {
            outcome = Outcome.interrupted(ctx);
            throw e;
        } finally {
            end(ctx, started, outcome != null ? outcome : new Outcome.Failed(id + ": unexpected error"), span);
        }
    }

    /** Runs {@code work} with {@code span} as the current call's span, for the spans of its tries. */
    private static <T> T traced(String span, ScopedValue.CallableOp<T, Exception> work) throws UpstreamFailure, InterruptedException {
        try {
            return ScopedValue.where(CallSpans.CURRENT, span).call(work);
        } catch (UpstreamFailure | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A forwarded exchange is recorded when its body has been streamed to the client: as
     * {@link Outcome#answered} says (a 5xx is the upstream's failure), a failure when no answer came
     * or its body broke off, cancelled when the client went away first.
     */
    @Override
    public Response forward(Forward request) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        long started = start();
        String span = ctx.trace().recording().isPresent() ? TraceParent.newSpanId() : null;
        Response response;
        try {
            response = span == null ? inner.forward(request) : traced(span, () -> inner.forward(request));
        } catch (UpstreamFailure f) {
            end(ctx, started, new Outcome.Failed(f.getMessage(), f.status()), span);
            throw f;
        } catch (InterruptedException e) {
            end(ctx, started, Outcome.interrupted(ctx), span);
            throw e;
        } catch (RuntimeException e) {
            end(ctx, started, new Outcome.Failed(id + ": unexpected error"), span);
            throw e;
        }
        int status = response.status();
        return response.onEnd(failure -> {
            if (failure != null && !(failure instanceof BodyAborted)) {   // the client went away while the body streamed
                ctx.ledger().stopped(StopReason.CLIENT_GONE);
            }
            end(ctx, started, Outcome.forwarded(id, status, failure, ctx), span);
        });
    }

    private long start() {
        events.callStarted(id);
        return System.nanoTime();
    }

    private void end(RequestContext ctx, long started, Outcome outcome, String span) {
        long ended = System.nanoTime();
        ctx.ledger().upstream(ended - started);
        events.callEnded(new CallRecord(id, ctx.requestId(), started, ended, outcome));
        if (span != null) {
            ctx.trace().recording().ifPresent(root -> root.record(CallSpans.call(root, span, id, ctx.requestId(), started, ended, outcome)));
        }
    }

    @Override
    public void check(RequestContext request) {
        inner.check(request);
    }
}
