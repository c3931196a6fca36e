package io.loomgate.upstream;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.Response;
import io.loomgate.json.JsonWriter;

/**
 * The outermost decorator: records every call once in the {@link CallLog} (in flight while it runs,
 * then its outcome and duration). An interrupt is {@code timeout} once the request's deadline has
 * passed and {@code cancelled} before it, just as the engine reports the part.
 */
final class Recorded implements Layered {

    private final UpstreamId id;
    private final Layered inner;
    private final CallLog log;

    Recorded(UpstreamId id, Layered inner, CallLog log) {
        this.id = id;
        this.inner = inner;
        this.log = log;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return call(Call.PLAIN);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        CallLog.Started started = log.start(id, ctx.requestId());
        Outcome outcome = null;
        try {
            Value value = inner.call(call);
            outcome = new Outcome.Success(value);
            return value;
        } catch (UpstreamFailure f) {
            outcome = new Outcome.Failed(f.getMessage(), f.status());
            throw f;
        } catch (InterruptedException e) {
            outcome = Outcome.interrupted(ctx);
            throw e;
        } finally {
            log.end(started, outcome != null ? outcome : new Outcome.Failed(id + ": unexpected error"));
        }
    }

    /**
     * A forwarded exchange is recorded when its body has been streamed to the client: a success
     * with the upstream's status, a failure when no answer came or its body broke off, cancelled
     * when the client went away first.
     */
    @Override
    public Response forward(Forward request) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        CallLog.Started started = log.start(id, ctx.requestId());
        Response response;
        try {
            response = inner.forward(request);
        } catch (UpstreamFailure f) {
            log.end(started, new Outcome.Failed(f.getMessage(), f.status()));
            throw f;
        } catch (InterruptedException e) {
            log.end(started, Outcome.interrupted(ctx));
            throw e;
        } catch (RuntimeException e) {
            log.end(started, new Outcome.Failed(id + ": unexpected error"));
            throw e;
        }
        int status = response.status();
        return response.onEnd(failure -> log.end(started, switch (failure) {
            case null -> new Outcome.Success(new Answered(status));
            case BodyAborted b -> new Outcome.Failed(id + ": " + b.getMessage());
            default -> Outcome.CANCELLED;
        }));
    }

    /** A forwarded answer, as the call log holds it: its status. */
    record Answered(int status) implements Value.WithStatus {
        @Override
        public void writeTo(JsonWriter json) {
            json.value(status);
        }
    }

    @Override
    public void check(RequestContext request) {
        inner.check(request);
    }
}
