package io.loomgate.api;

import io.loomgate.config.ServiceOptions;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.compose.CallResult;
import io.loomgate.core.compose.ComposeAnswer;
import io.loomgate.core.compose.Composer;
import io.loomgate.core.compose.Composition;
import io.loomgate.edge.routing.Handler;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.timeline.ServerTiming;
import io.loomgate.upstream.Upstreams;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
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
    private final ServiceOptions options;
    private final Events events;

    ComposeEndpoint(ComposeRoute route, Composer composer, Upstreams upstreams, ServiceOptions options, Events events) {
        this.route = route;
        this.composer = composer;
        this.upstreams = upstreams;
        this.options = options;
        this.events = events;
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
        String error = switch (c.status()) {
            case FAILED, TIMEOUT -> new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
            default -> "";
        };
        Answer answer = new Answer(request.id(), request.clientId(), route.path(), "compose", true, c.status(),
                response.status(), c.calls().stream().map(CallResult::call).toList(), false,
                error.isEmpty() ? Optional.empty() : Optional.of(error), c.took(), timeout, request.arrivalNanos(), fork,
                System.nanoTime(), ctx.attempts().all(), ctx.ledger().cacheStatuses());
        events.answered(answer);
        response = response.withHeader("Server-Timing", ServerTiming.header(answer));
        return answer.cache().isEmpty() ? response : response.withHeader("Cache-Status", String.join(", ", answer.cache()));
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
