package io.loomgate.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.ErrorMapper;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.RequestHead;
import io.loomgate.http.RequestTarget;
import io.loomgate.http.Response;
import io.loomgate.routing.Route;
import io.loomgate.routing.RouteMatch;
import io.loomgate.routing.Router;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The single JDK handler: validates the request, routes it, applies the admission limit and the
 * draining state, runs the route's handler, maps any failure to a JSON error, writes the answer and
 * always closes the exchange (the JDK gives the connection back only then).
 *
 * <p>In platform mode a route's work moves to the pool ({@link RequestExecutor#work}) once it has
 * been admitted here, so {@code --max-inflight} sheds at once in both modes instead of queueing;
 * the virtual thread that read the head waits for it. Operator routes and errors are answered on
 * that virtual thread. An answer that could not be written whole (its streamed source failed, or
 * the client went away) is thrown back to the JDK, which then closes and forgets the connection.
 */
final class GatewayHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger("loomgate");

    /** Whether a request was admitted before its work moved to the pool. */
    private enum Ticket { ASK, GRANTED, REFUSED }

    private final Router router;
    private final RequestExecutor executor;
    private final Lifecycle lifecycle;
    private final Admission admission;
    private final RequestObserver observer;
    private final RequestIds ids = new RequestIds();
    private final LongAdder served = new LongAdder();
    private final AtomicInteger handling = new AtomicInteger();

    GatewayHandler(Router router, RequestExecutor executor, Lifecycle lifecycle, Admission admission,
                   RequestObserver observer) {
        this.router = router;
        this.executor = executor;
        this.lifecycle = lifecycle;
        this.admission = admission;
        this.observer = observer;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        long arrival = RequestExecutor.arrivalNanos();
        handling.incrementAndGet();
        IOException unfinished;
        if (executor.pooled() && isRouteWork(exchange)) {
            if (!admission.tryEnter()) {
                unfinished = respond(exchange, arrival, Ticket.REFUSED);
            } else {
                try {
                    unfinished = executor.work(() -> {
                        try {
                            return respond(exchange, arrival, Ticket.GRANTED);
                        } finally {
                            admission.exit();
                        }
                    });
                } catch (RuntimeException rejected) {
                    admission.exit();
                    handling.decrementAndGet();
                    throw rejected;
                }
            }
        } else {
            unfinished = respond(exchange, arrival, Ticket.ASK);
        }
        if (unfinished != null) {
            throw unfinished;
        }
    }

    /** True when the request names a route that is not an operator route: work for the pool. */
    private boolean isRouteWork(HttpExchange exchange) {
        try {
            String path = RequestTarget.of(exchange.getRequestURI()).path();
            return router.match(exchange.getRequestMethod(), path) instanceof RouteMatch.Found(Route route, var params)
                    && !route.exempt();
        } catch (RuntimeException malformed) {
            return false;
        }
    }

    /**
     * Serves the exchange on this thread, and closes it; {@code handling} was counted by the caller.
     *
     * @return null when the answer was written whole, else why not (to throw back to the JDK)
     */
    private IOException respond(HttpExchange exchange, long arrival, Ticket ticket) {
        String id = ids.keepOrNext(exchange.getRequestHeaders().getFirst("X-Request-Id"));
        String method = exchange.getRequestMethod();
        Outcome outcome = new Outcome();
        try (exchange) {
            Response response;
            try {
                response = serve(exchange, id, method, arrival, outcome, ticket);
            } catch (Throwable failure) {
                response = ErrorMapper.toResponse(failure, id);
            }
            if ((lifecycle.isDraining() || RequestHead.endsConnection(exchange.getRequestHeaders()))
                    && !response.headers().containsKey("Connection")) {
                response = response.withHeader("Connection", "close");
            }
            outcome.status = response.status();
            ExchangeIO.write(exchange, response, id, method.equals("HEAD"));
            served.increment();
            return null;
        } catch (BodyAborted cut) {
            outcome.cutOff = true;
            LOG.log(Level.WARNING, "request " + id + ": the upstream's body failed after " + cut.written()
                    + " bytes were sent (" + cut.getMessage() + "); the response was cut off and its connection closed");
            return cut;
        } catch (IOException | RuntimeException clientGone) {
            outcome.written = false;
            LOG.log(Level.DEBUG, () -> "request " + id + ": response not delivered: " + clientGone);
            return clientGone instanceof IOException io ? io : new IOException(clientGone);
        } finally {
            handling.decrementAndGet();
            observer.finished(new RequestObserver.RequestSummary(outcome.routeKey, outcome.started, method,
                    exchange.getRequestURI().getRawPath(), outcome.status, outcome.written, outcome.cutOff, id,
                    System.nanoTime() - arrival));
        }
    }

    private Response serve(HttpExchange exchange, String id, String method, long arrival, Outcome outcome,
                           Ticket ticket) throws Exception {
        RequestHead.check(exchange.getProtocol(), exchange.getRequestHeaders());
        RequestTarget target = RequestTarget.of(exchange.getRequestURI());
        RouteMatch match = router.match(method, target.path());
        return switch (match) {
            case RouteMatch.Found(Route route, Map<String, String> params) -> {
                outcome.routeKey = route.path();
                InputStream body = InputStream.nullInputStream();
                if (route.readsBody()) {
                    body = exchange.getRequestBody();
                } else {
                    ExchangeIO.discardBody(exchange);
                }
                Request request = new Request(id, method, target.path(), target.query(), params,
                        exchange.getRequestHeaders(), arrival, exchange.getRequestURI(), exchange.getRemoteAddress(), body);
                yield route.exempt() ? run(route, request, outcome) : admitAndRun(route, request, outcome, ticket);
            }
            case RouteMatch.MethodNotAllowed(String path, String allow) -> {
                outcome.routeKey = path;
                throw new HttpError(405, "method_not_allowed", method + " is not allowed on " + path,
                        Map.of(), Map.of("Allow", allow));
            }
            case RouteMatch.Options(String path, String allow) -> {
                outcome.routeKey = path;
                yield new Response(204, Response.TEXT, new byte[0], Map.of("Allow", allow));
            }
            case RouteMatch.NotFound() ->
                    throw new HttpError(404, "not_found", "no route for " + HttpError.echo(target.path()));
            case RouteMatch.NotImplemented(String m) ->
                    throw new HttpError(501, "not_implemented", "method '" + HttpError.echo(m) + "' is not one loomgate knows");
        };
    }

    /** Runs a route within the admission limit; a {@code GRANTED} ticket was admitted (and is let go) by the caller. */
    private Response admitAndRun(Route route, Request request, Outcome outcome, Ticket ticket) throws Exception {
        if (lifecycle.isNew(request.arrivalNanos())) {
            throw new HttpError(503, "draining", "the server is shutting down; retry on another instance",
                    Map.of(), Map.of("Connection", "close"));
        }
        boolean entered = ticket == Ticket.ASK && admission.tryEnter();
        if (ticket == Ticket.REFUSED || (ticket == Ticket.ASK && !entered)) {
            throw new HttpError(503, "overloaded", "more than " + admission.max()
                    + " requests are in flight; retry shortly", Map.of(), Map.of("Retry-After", "1"));
        }
        try {
            return run(route, request, outcome);
        } finally {
            if (entered) {
                admission.exit();
            }
        }
    }

    private Response run(Route route, Request request, Outcome outcome) throws Exception {
        observer.started(route.path());
        outcome.started = true;
        return route.handler().handle(request);
    }

    /** Responses written since start. */
    long served() {
        return served.sum();
    }

    /** Requests whose head has been read and whose answer is not written yet. */
    int handling() {
        return handling.get();
    }

    /** What the finally block reports, filled in as the request goes. */
    private static final class Outcome {
        String routeKey = RequestObserver.UNMATCHED;
        boolean started;
        int status = 500;
        boolean written = true;
        boolean cutOff;
    }
}
