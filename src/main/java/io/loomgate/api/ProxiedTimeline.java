package io.loomgate.api;

import io.loomgate.core.call.Attempts;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Status;
import io.loomgate.http.Request;
import io.loomgate.http.RequestLedger;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.event.Transfer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A proxied request's place on {@code /debug/requests} and the dashboard, and its access-log line's
 * upstream fields: once its answer's body has been written (or at once when it got none), an
 * {@link Answer} with its tries (and their endpoints), the bytes each way, and its first and last
 * byte; and the ledger told the endpoint of its last try, the upstream's status and how many tries.
 */
final class ProxiedTimeline {

    private final ProxyRoute route;
    private final Request request;
    private final RequestContext ctx;
    private final Events events;
    private final long forkNanos;

    ProxiedTimeline(ProxyRoute route, Request request, RequestContext ctx, Events events, long forkNanos) {
        this.route = route;
        this.request = request;
        this.ctx = ctx;
        this.events = events;
        this.forkNanos = forkNanos;
    }

    /** {@code response}, recorded once its body is written; its head came now. */
    Response whenWritten(Response response, Outcome outcome, CountedBody in) {
        long firstByte = System.nanoTime();
        String endpoint = endpoint();
        ctx.ledger().proxied(new RequestLedger.Proxied(endpoint, response.status(), tries()));
        return response.counted((failure, out) -> record(failure == null ? outcome
                : Outcome.forwarded(route.upstream(), response.status(), failure, ctx), response.status(), firstByte,
                System.nanoTime(), in.count(), out, endpoint));
    }

    /** The exchange got no answer: recorded now. */
    void failed(Outcome outcome, CountedBody in) {
        int status = switch (outcome) {
            case Outcome.TimedOut t -> 504;
            case Outcome.Cancelled c -> 499;   // a proxy has no sibling: only its client stops it
            case Outcome.Failed f when f.status().isPresent() -> f.status().getAsInt();
            default -> 502;
        };
        String endpoint = endpoint();
        ctx.ledger().proxied(new RequestLedger.Proxied(endpoint, 0, tries()));
        long now = System.nanoTime();
        record(outcome, status, now, now, in.count(), 0, endpoint);
    }

    private void record(Outcome outcome, int httpStatus, long firstByte, long lastByte, long bytesIn, long bytesOut, String endpoint) {
        Status status = switch (outcome) {
            case Outcome.Success s -> Status.OK;
            case Outcome.TimedOut t -> Status.TIMEOUT;
            default -> Status.FAILED;
        };
        Optional<String> error = switch (outcome) {
            case Outcome.Failed f -> Optional.of(f.reason());
            case Outcome.TimedOut t -> Optional.of(route.upstream() + ": no answer within " + ctx.timeout().toMillis() + " ms");
            case Outcome.Cancelled c -> Optional.of("cancelled: " + c.why().why());
            default -> Optional.empty();
        };
        FinishedCall call = new FinishedCall(route.upstream(), outcome, Optional.of(Duration.ZERO), Duration.ofNanos(lastByte - forkNanos));
        events.answered(new Answer(request.id(), request.clientId(), route.path(), "proxy", false, status, httpStatus, List.of(call),
                false, error, Duration.ofNanos(firstByte - forkNanos), ctx.timeout(), request.arrivalNanos(), forkNanos, firstByte,
                ctx.attempts().all(), ctx.ledger().cacheStatuses(),
                Optional.of(new Transfer(bytesIn, bytesOut, firstByte, lastByte, endpoint))));
    }

    private String endpoint() {
        return ctx.ledger().lastTried(route.upstream().value()).orElse("");
    }

    /** Its tries: those its upstream's retries and replicas noted, else the one. */
    private int tries() {
        return Math.max(1, ctx.attempts().count(route.upstream()));
    }
}
