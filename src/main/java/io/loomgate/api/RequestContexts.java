package io.loomgate.api;

import io.loomgate.config.ServiceOptions;
import io.loomgate.core.call.Attempts;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.Propagation;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.RequestTrace;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.http.Request;
import io.loomgate.upstream.Upstreams;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A request's context for the route that serves it, made the same way by every endpoint: its
 * deadline from its arrival (capped by a calling loomgate's {@code X-Loomgate-Deadline-Ms}), its
 * trace, its caller, and a fresh record of retried tries.
 */
final class RequestContexts {

    private RequestContexts() {
    }

    /** For a route with a fixed deadline and no client knobs, counted from the request's arrival. */
    static RequestContext of(Request request, String route, Duration timeout, Overrides overrides) {
        return of(request, route, timeout, overrides, request.arrivalNanos());
    }

    /** The same, the deadline counted from {@code fromNanos} (a proxy route: its body's end, when it was read first). */
    static RequestContext of(Request request, String route, Duration timeout, Overrides overrides, long fromNanos) {
        Duration capped = CallerDeadline.cap(request.headers(), timeout);
        return new RequestContext(request, route, fromNanos + capped.toNanos(), capped, overrides,
                new RequestTrace(request.headers().first(Propagation.TRACEPARENT), request.ledger()), new Attempts());
    }

    /**
     * For a fan-out or composed route: its client knobs read ({@code ?timeout=}, and with
     * {@code clientKnobs} {@code ?fail=} and {@code ?delay=}), then every upstream asked whether it
     * can serve the request at all ({@link io.loomgate.core.port.Upstream#check}).
     */
    static RequestContext checked(Request request, String route, List<UpstreamId> called, Optional<Duration> routeTimeout,
                                  boolean clientKnobs, ServiceOptions options, Upstreams upstreams) {
        Knobs knobs = Knobs.parse(request.query(), route, called, routeTimeout.orElse(options.timeout()), options.maxTimeout(),
                clientKnobs);
        RequestContext ctx = of(request, route, knobs.timeout(), knobs.overrides());
        for (UpstreamId id : called) {
            upstreams.get(id).check(ctx);
        }
        return ctx;
    }
}
