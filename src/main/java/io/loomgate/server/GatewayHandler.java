package io.loomgate.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.loomgate.config.AddressRanges;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.Caller;
import io.loomgate.http.ErrorMapper;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.RequestHead;
import io.loomgate.http.RequestTarget;
import io.loomgate.http.Response;
import io.loomgate.routing.Guard;
import io.loomgate.routing.Route;
import io.loomgate.routing.RouteMatch;
import io.loomgate.routing.Router;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
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
    private final AddressRanges trustedProxies;
    private final RequestIds ids = new RequestIds();
    private final LongAdder served = new LongAdder();
    private final AtomicInteger handling = new AtomicInteger();

    GatewayHandler(Router router, RequestExecutor executor, Lifecycle lifecycle, Admission admission,
                   RequestObserver observer, AddressRanges trustedProxies) {
        this.router = router;
        this.trustedProxies = trustedProxies;
        this.executor = executor;
        this.lifecycle = lifecycle;
        this.admission = admission;
        this.observer = observer;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        long arrival = RequestExecutor.arrivalNanos();
        handling.incrementAndGet();
        Visit visit = prepare(exchange, arrival);
        IOException unfinished;
        if (executor.pooled() && visit.isRouteWork()) {
            if (!admission.tryEnter()) {
                unfinished = respond(visit, Ticket.REFUSED);
            } else {
                try {
                    unfinished = executor.work(() -> {
                        try {
                            return respond(visit, Ticket.GRANTED);
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
            unfinished = respond(visit, Ticket.ASK);
        }
        if (unfinished != null) {
            throw unfinished;
        }
    }

    /**
     * One exchange as it goes: the request and its route once they are known, or the answer that
     * was decided before any route ran (an error, a preflight, a refusal at the edge), and what the
     * finally block reports.
     */
    private static final class Visit {
        final HttpExchange exchange;
        final long arrival;
        final String id;
        final String method;
        String clientId = "";
        Headers headers = Headers.EMPTY;
        Route route;
        Request request;
        Response early;
        Throwable failed;
        Headers answerHeaders = Headers.EMPTY;
        String routeKey = RequestObserver.UNMATCHED;
        boolean started;
        int status = 500;
        boolean written = true;
        boolean cutOff;

        Visit(HttpExchange exchange, long arrival, String id) {
            this.exchange = exchange;
            this.arrival = arrival;
            this.id = id;
            this.method = exchange.getRequestMethod();
        }

        /** A route's handler will run for it, within the admission limit: work for the pool in platform mode. */
        boolean isRouteWork() {
            return route != null && request != null && early == null && failed == null && !route.exempt();
        }
    }

    /**
     * Everything before admission, on the thread that read the head: validate, route, read or
     * discard the body, and pass the route's guard (CORS preflight, authentication, rate limit). It
     * never throws; what it decides is in the visit.
     */
    private Visit prepare(HttpExchange exchange, long arrival) {
        Headers headers = ServerHeaders.of(exchange.getRequestHeaders());
        String offered = headers.first("X-Request-Id");
        InetSocketAddress peer = exchange.getRemoteAddress();
        Visit v = new Visit(exchange, arrival, ids.idFor(offered, peer != null && trustedProxies.contains(peer.getAddress())));
        v.clientId = RequestIds.clientId(offered, v.id);
        v.headers = headers;
        try {
            RequestHead.check(exchange.getProtocol(), headers);
            RequestTarget target = RequestTarget.of(exchange.getRequestURI());
            switch (match(v.method, target.path(), headers)) {
                case RouteMatch.Found(Route route, Map<String, String> params) -> {
                    v.routeKey = route.path();
                    v.route = route;
                    InputStream body = InputStream.nullInputStream();
                    if (route.readsBody()) {
                        body = exchange.getRequestBody();
                    } else {
                        ExchangeIO.discardBody(exchange);
                    }
                    v.request = new Request(v.id, v.method, target.path(), target.query(), params, headers,
                            arrival, exchange.getRequestURI(), peer, body, Caller.ANONYMOUS, v.clientId);
                    switch (route.guard().check(v.request)) {
                        case Guard.Verdict.Pass(Request admitted, Headers answerHeaders) -> {
                            v.request = admitted;
                            v.answerHeaders = answerHeaders;
                        }
                        case Guard.Verdict.Answer(Response answer) -> v.early = answer;
                    }
                }
                case RouteMatch.MethodNotAllowed(String path, String allow) -> {
                    v.routeKey = path;
                    throw new HttpError(405, "method_not_allowed", v.method + " is not allowed on " + path,
                            Map.of(), Map.of("Allow", allow));
                }
                case RouteMatch.Options(String path, String allow) -> {
                    v.routeKey = path;
                    v.early = new Response(204, Response.TEXT, new byte[0], Headers.of("Allow", allow));
                }
                case RouteMatch.NotFound() ->
                        throw new HttpError(404, "not_found", "no route for " + HttpError.echo(target.path()));
                case RouteMatch.NotImplemented(String m) ->
                        throw new HttpError(501, "not_implemented", "method '" + HttpError.echo(m) + "' is not one loomgate knows");
            }
        } catch (Throwable t) {
            v.failed = t;
        }
        return v;
    }

    /**
     * The route for {@code method} on {@code path}; for a CORS preflight (an OPTIONS with
     * {@code Origin} and {@code Access-Control-Request-Method}), the route of the method it asks
     * about, when that route answers preflights.
     */
    private RouteMatch match(String method, String path, Headers headers) {
        RouteMatch match = router.match(method, path);
        String asked = headers.first("Access-Control-Request-Method");
        if (method.equals("OPTIONS") && asked != null && headers.contains("Origin")
                && router.match(asked.strip(), path) instanceof RouteMatch.Found found && found.route().guard().answersPreflight()) {
            return found;
        }
        return match;
    }


    /**
     * Serves the exchange on this thread, and closes it; {@code handling} was counted by the caller.
     *
     * @return null when the answer was written whole, else why not (to throw back to the JDK)
     */
    private IOException respond(Visit v, Ticket ticket) {
        HttpExchange exchange = v.exchange;
        try (exchange) {
            Response response;
            try {
                response = answer(v, ticket);
            } catch (Throwable failure) {
                response = ErrorMapper.toResponse(failure, v.id);
            }
            for (String name : v.answerHeaders.names()) {
                response = response.withHeader(name, v.answerHeaders.first(name));
            }
            if (v.route != null && v.request != null) {
                response = v.route.guard().decorate(v.request, response);
            }
            if ((lifecycle.isDraining() || RequestHead.endsConnection(v.headers))
                    && !response.headers().contains("Connection")) {
                response = response.withHeader("Connection", "close");
            }
            v.status = response.status();
            ExchangeIO.write(exchange, response, v.id, v.method.equals("HEAD"));
            served.increment();
            return null;
        } catch (BodyAborted cut) {
            v.cutOff = true;
            LOG.log(Level.WARNING, "request " + v.id + ": the upstream's body failed after " + cut.written()
                    + " bytes were sent (" + cut.getMessage() + "); the response was cut off and its connection closed");
            return cut;
        } catch (IOException | RuntimeException clientGone) {
            v.written = false;
            LOG.log(Level.DEBUG, () -> "request " + v.id + ": response not delivered: " + clientGone);
            return clientGone instanceof IOException io ? io : new IOException(clientGone);
        } finally {
            handling.decrementAndGet();
            String caller = v.request == null ? "" : v.request.caller().name().orElse("");
            observer.finished(new RequestObserver.RequestSummary(v.routeKey, v.started, v.method,
                    exchange.getRequestURI().getRawPath(), v.status, v.written, v.cutOff, v.id,
                    System.nanoTime() - v.arrival, caller, v.clientId));
        }
    }

    /** The answer decided before admission, or the route's own. */
    private Response answer(Visit v, Ticket ticket) throws Exception {
        if (v.failed != null) {
            throw v.failed instanceof Exception e ? e : new IllegalStateException(v.failed);
        }
        if (v.early != null) {
            return v.early;
        }
        return v.route.exempt() ? run(v) : admitAndRun(v, ticket);
    }

    /** Runs a route within the admission limit; a {@code GRANTED} ticket was admitted (and is let go) by the caller. */
    private Response admitAndRun(Visit v, Ticket ticket) throws Exception {
        if (lifecycle.isNew(v.arrival)) {
            throw new HttpError(503, "draining", "the server is shutting down; retry on another instance",
                    Map.of(), Map.of("Connection", "close"));
        }
        boolean entered = ticket == Ticket.ASK && admission.tryEnter();
        if (ticket == Ticket.REFUSED || (ticket == Ticket.ASK && !entered)) {
            throw new HttpError(503, "overloaded", "more than " + admission.max()
                    + " requests are in flight; retry shortly", Map.of(), Map.of("Retry-After", "1"));
        }
        try {
            return run(v);
        } finally {
            if (entered) {
                admission.exit();
            }
        }
    }

    private Response run(Visit v) throws Exception {
        observer.started(v.route.path());
        v.started = true;
        return v.route.handler().handle(v.request);
    }

    /** Responses written since start. */
    long served() {
        return served.sum();
    }

    /** Requests whose head has been read and whose answer is not written yet. */
    int handling() {
        return handling.get();
    }
}
