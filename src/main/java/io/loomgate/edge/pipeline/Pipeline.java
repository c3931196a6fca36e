package io.loomgate.edge.pipeline;

import io.loomgate.config.AddressRanges;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.ErrorMapper;
import io.loomgate.http.Exchange;
import io.loomgate.http.HttpError;
import io.loomgate.http.RequestLedger;
import io.loomgate.http.Response;
import io.loomgate.http.StopReason;
import io.loomgate.observe.event.Delivery;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.event.RequestSummary;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * A request's way through the gateway, the same for every request:
 * <ol>
 *   <li>the filters, in their declared order ({@link Filters}), until one answers or all pass;</li>
 *   <li>an admitted request's work moves to the {@link Handoff} (the platform pool, in that mode);</li>
 *   <li>the route's handler answers, if no filter did (interrupted, so its work is cancelled, if the
 *       client hangs up meanwhile and the listener can tell);</li>
 *   <li>anything thrown becomes an answer in the one {@link ErrorMapper};</li>
 *   <li>the answer goes back out through the same filters in reverse order, then is written;</li>
 *   <li>the filters end, in reverse order, and the {@link Events} (metrics, access log) hear how it went.</li>
 * </ol>
 * Observation is not a filter: no filter that answers early can keep a request out of the metrics.
 *
 * <pre>{@code
 * Pipeline pipeline = new Pipeline(Filters.standard(router, lifecycle, admission), events, Handoff.HERE, trusted);
 * Optional<IOException> unfinished = pipeline.run(exchange, System.nanoTime());
 * }</pre>
 */
public final class Pipeline {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private final List<Filter> filters;
    private final Events events;
    private final Handoff handoff;
    private final AddressRanges trustedProxies;
    /** The requests whose route's work runs now, for a shutdown to record why it stops them. */
    private final Set<RequestLedger> working = ConcurrentHashMap.newKeySet();

    public Pipeline(List<Filter> filters, Events events, Handoff handoff, AddressRanges trustedProxies) {
        this.filters = List.copyOf(filters);
        this.events = events;
        this.handoff = handoff;
        this.trustedProxies = trustedProxies;
    }

    /**
     * Records {@code why} as the stop reason of every request whose route's work runs now (one that
     * had a reason keeps it), before the caller interrupts them: a shutdown past its grace period.
     */
    public void stopping(StopReason why) {
        working.forEach(ledger -> ledger.stopped(why));
    }

    /** The filters, in the order they run. */
    public List<Filter> filters() {
        return filters;
    }

    /**
     * Serves one exchange and closes it.
     *
     * @return why the answer could not be written whole (the client went away, or a streamed body's
     *         source failed), for the listener to drop the connection; empty when it was
     */
    public Optional<IOException> run(Exchange exchange) {
        Visit v = new Visit(exchange, trustedProxies);
        exchange.onClientGone(v.clientGone()::fire);
        int entered = 0;
        Response answer = null;
        try {
            while (answer == null && entered < filters.size()) {
                answer = filters.get(entered++).onRequest(v);
            }
        } catch (Throwable refused) {
            answer = ErrorMapper.toResponse(refused, v.id());
        }
        int ran = entered;
        if (answer == null && v.admitted()) {
            try {
                return handoff.work(() -> serve(v, null, ran));
            } catch (RejectedExecutionException stopped) {
                answer = new HttpError(503, "draining", "the server is shutting down; retry on another instance",
                        Map.of(), Map.of("Connection", "close")).toResponse();
            }
        }
        return serve(v, answer, ran);
    }

    /** The route's answer unless a filter gave one, the way out, the write and the end. */
    private Optional<IOException> serve(Visit v, Response early, int ran) {
        try {
            Response answer = early;
            if (answer == null) {
                working.add(v.ledger());   // until its answer is written: a proxied body streams then
                v.answering().start();
                events.requestStarted(v.routeKey());
                answer = handle(v);
            }
            for (int i = ran - 1; i >= 0; i--) {
                answer = filters.get(i).onResponse(v, answer);
            }
            v.answering().status(answer.status());
            write(v, Accounting.counted(v, answer));
        } finally {
            working.remove(v.ledger());
            for (int i = ran - 1; i >= 0; i--) {
                filters.get(i).onEnd(v);
            }
            Answering out = v.answering();
            String caller = v.request() == null ? "" : v.request().caller().name().orElse("");
            events.requestFinished(new RequestSummary(
                    new RequestSummary.Asked(v.routeKey(), v.method(), v.exchange().uri().getRawPath(), v.id(), v.clientId(), caller),
                    new RequestSummary.Ending(out.started(), out.status(), out.delivery(), System.nanoTime() - v.arrival()),
                    Accounting.wire(v, trustedProxies)));
        }
        return Optional.ofNullable(v.answering().unfinished());
    }

    /** The route's handler, interrupted if the client hangs up while it works; 499 then, as nginx logs it. */
    private Response handle(Visit v) {
        try {
            if (!v.clientGone().arm()) {
                throw new InterruptedException("the client had gone");
            }
            return v.matched().handler().handle(v.request());
        } catch (Throwable failure) {
            if (v.clientGone().gone()) {
                return new HttpError(499, "client_gone", "the client closed its connection before the answer").toResponse();
            }
            return ErrorMapper.toResponse(failure, v.id());
        } finally {
            v.clientGone().disarm();
        }
    }

    private static void write(Visit v, Response answer) {
        try (Exchange exchange = v.exchange()) {
            exchange.write(answer, v.method().equals("HEAD"));
        } catch (BodyAborted cut) {
            v.answering().ended(Delivery.CUT_OFF, cut);
            LOG.log(Level.WARNING, "request " + v.id() + ": the upstream's body failed after " + cut.written()
                    + " bytes were sent (" + cut.getMessage() + "); the response was cut off and its connection closed");
        } catch (IOException | RuntimeException clientGone) {
            v.ledger().stopped(StopReason.CLIENT_GONE);
            v.answering().ended(Delivery.CLIENT_GONE, clientGone instanceof IOException io ? io : new IOException(clientGone));
            LOG.log(Level.DEBUG, () -> "request " + v.id() + ": response not delivered: " + clientGone);
        }
    }
}
