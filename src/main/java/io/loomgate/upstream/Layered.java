package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import io.loomgate.core.port.Forwarder;
import io.loomgate.core.port.Forward;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.http.Response;

/**
 * Both ports of one upstream, as its {@link UpstreamStack} sees them: every layer wraps calling and
 * forwarding the same way, so faults, the breaker, retries and the call log treat a proxied request
 * as they treat a call.
 */
interface Layered extends Upstream, Forwarder {

    /** An upstream as its kind made it: it forwards only if it is a {@link Forwarder}. */
    static Layered of(Upstream raw) {
        return new Layered() {
            @Override
            public Value call() throws UpstreamFailure, InterruptedException {
                return raw.call();
            }

            @Override
            public Value call(Call call) throws UpstreamFailure, InterruptedException {
                return raw.call(call);
            }

            @Override
            public Response forward(Forward request) throws UpstreamFailure, InterruptedException {
                if (raw instanceof Forwarder f) {
                    return f.forward(request);
                }
                throw new UnsupportedOperationException(raw.getClass().getSimpleName() + " cannot forward a request");
            }

            @Override
            public void check(RequestContext request) {
                raw.check(request);
            }
        };
    }
}
