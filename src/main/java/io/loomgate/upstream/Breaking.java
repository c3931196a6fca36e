package io.loomgate.upstream;

import io.loomgate.core.port.Forward;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.http.Response;

/**
 * The breaker's layer: every call and forwarded request goes through the upstream's {@link Breaker},
 * which fails it at once while open. A call counts by how it ended; a forwarded exchange by its
 * head: a 5xx answer is a failure, any other a success.
 */
final class Breaking implements Layered {

    private final Breaker breaker;
    private final Layered inner;

    Breaking(Breaker breaker, Layered inner) {
        this.breaker = breaker;
        this.inner = inner;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return call(Call.PLAIN);
    }

    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        return breaker.through(() -> inner.call(call), v -> Outcome.Kind.SUCCESS);
    }

    @Override
    public Response forward(Forward request) throws UpstreamFailure, InterruptedException {
        return breaker.through(() -> inner.forward(request),
                r -> r.status() >= 500 ? Outcome.Kind.FAILED : Outcome.Kind.SUCCESS);
    }

    @Override
    public void check(RequestContext request) {
        inner.check(request);
    }
}
