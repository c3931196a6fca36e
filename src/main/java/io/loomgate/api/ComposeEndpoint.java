package io.loomgate.api;

import io.loomgate.config.ServiceOptions;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.compose.CallResult;
import io.loomgate.core.compose.ComposeAnswer;
import io.loomgate.core.compose.Composer;
import io.loomgate.core.compose.Composition;
import io.loomgate.core.fanout.Aggregation;
import io.loomgate.core.fanout.Aggregator;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.timeline.RecentRequests;
import io.loomgate.observe.timeline.ServerTiming;
import io.loomgate.observe.timeline.Timeline;
import io.loomgate.routing.Handler;
import io.loomgate.upstream.Upstreams;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A composed route ({@code "policy": "compose"}): binds the request context once, runs the call
 * graph in one structured scope, and answers with the route's template, or with the status a failed
 * call or the deadline calls for. Like a fan-out it records a timeline, with each call's start and
 * end, and sends {@code Server-Timing}.
 */
final class ComposeEndpoint implements Handler {

    /** The largest client body a call may carry on. */
    static final int MAX_BODY_BYTES = 1024 * 1024;

    private final ComposeRoute route;
    private final Composer composer;
    private final Upstreams upstreams;
    private final Aggregator aggregator;
    private final ServiceOptions options;
    private final RecentRequests recent;

    ComposeEndpoint(ComposeRoute route, Composer composer, Upstreams upstreams, Aggregator aggregator,
                    ServiceOptions options, RecentRequests recent) {
        this.route = route;
        this.composer = composer;
        this.upstreams = upstreams;
        this.aggregator = aggregator;
        this.options = options;
        this.recent = recent;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        RequestContext ctx = RequestContexts.checked(request, route.path(), route.upstreams(), route.timeout(),
                route.clientKnobs(), options, upstreams);
        Duration timeout = ctx.timeout();
        byte[] body = route.readsBody() ? body(request.body()) : null;
        Optional<String> contentType = Optional.ofNullable(request.headers().first("Content-Type"));
        long fork = System.nanoTime();
        Composition c = RequestContext.callWith(ctx, () -> composer.run(route.graph(), body, contentType));
        Response response = ComposeAnswer.of(c, ctx);
        List<FinishedCall> parts = c.calls().stream().map(CallResult::call).toList();
        for (FinishedCall call : parts) {
            if (call.started()) {
                aggregator.record(call.upstream(), call.outcome().kind(), call.duration());
            }
        }
        String error = switch (c.status()) {
            case FAILED, TIMEOUT -> new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
            default -> "";
        };
        Aggregation aggregation = new Aggregation("compose", c.status(), parts,
                error.isEmpty() ? Optional.empty() : Optional.of(error), c.took());
        Timeline timeline = Timeline.of(request.id(), route.path(), "compose", aggregation, response.status(), timeout,
                request.arrivalNanos(), fork, System.nanoTime(), ctx.attempts().all()).withClientId(request.clientId());
        recent.record(timeline);
        return response.withHeader("Server-Timing", ServerTiming.header(timeline));
    }

    private static byte[] body(InputStream in) {
        try (in) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new HttpError(413, "payload_too_large", "a composed route takes bodies up to " + MAX_BODY_BYTES
                        + " bytes; this one is larger", Map.of(), Map.of("Connection", "close"));
            }
            return bytes;
        } catch (IOException e) {
            throw new HttpError(400, "bad_body", "the request body ended early or was not validly framed",
                    Map.of(), Map.of("Connection", "close"));
        }
    }
}
