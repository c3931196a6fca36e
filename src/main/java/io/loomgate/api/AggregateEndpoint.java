package io.loomgate.api;

import io.loomgate.config.ServiceOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.fanout.Aggregation;
import io.loomgate.core.fanout.Aggregator;
import io.loomgate.edge.routing.Handler;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.timeline.ServerTiming;
import io.loomgate.upstream.Upstreams;
import java.time.Duration;

/**
 * One fan-out route: checks the request's knobs, binds the request context once, and lets the
 * aggregator call the route's upstreams. Every answer carries a {@code Server-Timing} header, and is
 * told to the events (its calls to the metrics, its timeline to the recent requests). The deadline counts from the moment the request's first
 * byte arrived, and never exceeds the one a calling loomgate sent in {@code X-Loomgate-Deadline-Ms}.
 */
final class AggregateEndpoint implements Handler {

    private final FanOutRoute route;
    private final Upstreams upstreams;
    private final Aggregator aggregator;
    private final ServiceOptions options;
    private final ThreadMode threads;
    private final Events events;

    AggregateEndpoint(FanOutRoute route, Upstreams upstreams, Aggregator aggregator, ServiceOptions options,
                      ThreadMode threads, Events events) {
        this.events = events;
        this.route = route;
        this.upstreams = upstreams;
        this.aggregator = aggregator;
        this.options = options;
        this.threads = threads;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        RequestContext ctx = RequestContexts.checked(request, route.path(), route.upstreams(), route.timeout(),
                route.clientKnobs(), options, upstreams);
        Duration timeout = ctx.timeout();
        long fork = System.nanoTime();
        Aggregation aggregation = RequestContext.callWith(ctx,
                () -> aggregator.run(route.policy(), route.engine(), route.upstreams()));
        Response response = AggregationJson.response(route, aggregation, timeout, threads, request.id());
        String policy = route.engine().executor().isPresent() ? route.engine().name() : aggregation.policy();
        Answer answer = new Answer(request.id(), request.clientId(), route.path(), policy, false, aggregation.status(),
                response.status(), aggregation.parts(), aggregation.hedge().isPresent(), aggregation.error(),
                aggregation.duration(), timeout, request.arrivalNanos(), fork, System.nanoTime(), ctx.attempts().all(),
                ctx.ledger().cacheStatuses());
        events.answered(answer);
        response = response.withHeader("Server-Timing", ServerTiming.header(answer));
        return answer.cache().isEmpty() ? response : response.withHeader("Cache-Status", String.join(", ", answer.cache()));
    }
}
