package io.loomgate.edge.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.AddressRanges;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.event.RequestSummary;
import io.loomgate.edge.routing.Route;
import io.loomgate.edge.routing.Router;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The request pipeline as plain logic: an exchange in memory, no sockets, no server. */
class PipelineTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<RequestSummary> finished = new ArrayList<>();
    private final Events observer = new Events() {
        @Override
        public void requestStarted(String route) {
            events.add("started " + route);
        }

        @Override
        public void requestFinished(RequestSummary summary) {
            events.add("finished " + summary.status());
            finished.add(summary);
        }
    };
    private final Admission admission = new Admission(4);
    private final Router router = Router.of(List.of(
            Route.get("/work", request -> {
                events.add("handler");
                return Response.text(200, Response.TEXT, "done");
            }),
            Route.operator("/health", request -> Response.text(200, Response.TEXT, "ok"))));

    /** An exchange held in memory, which records what it is told. */
    private final class Memory implements Exchange {
        final String method;
        final String target;
        final Headers headers;
        IOException failWrite;
        Response written;
        boolean closed;
        final long arrival = System.nanoTime();

        Memory(String method, String target, Headers headers) {
            this.method = method;
            this.target = target;
            this.headers = headers;
        }

        @Override
        public String method() {
            return method;
        }

        @Override
        public URI uri() {
            return URI.create(target);
        }

        @Override
        public String protocol() {
            return "HTTP/1.1";
        }

        @Override
        public Headers headers() {
            return headers;
        }

        @Override
        public long arrivalNanos() {
            return arrival;
        }

        @Override
        public InetSocketAddress remote() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public InputStream body() {
            return new ByteArrayInputStream(new byte[0]);
        }

        @Override
        public void write(Response answer, boolean head) throws IOException {
            events.add("write " + answer.status() + " admitted=" + admission.admitted());
            if (failWrite != null) {
                throw failWrite;
            }
            written = answer;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** A filter that says when it runs, and may answer. */
    private Filter recording(String name, Response answer) {
        return new Filter() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Response onRequest(Visit v) {
                events.add("in " + name);
                return answer;
            }

            @Override
            public Response onResponse(Visit v, Response a) {
                events.add("out " + name);
                return a.withHeader("X-Seen-By-" + name, "yes");
            }

            @Override
            public void onEnd(Visit v) {
                events.add("end " + name);
            }
        };
    }

    private Pipeline pipeline(Handoff handoff, Filter... middle) {
        List<Filter> filters = new ArrayList<>(List.of(new RequestIdFilter(), new FramingFilter(), new RouteFilter(router),
                new BodyFilter()));
        filters.addAll(List.of(middle));
        filters.add(new AdmissionFilter(admission));
        return new Pipeline(filters, observer, handoff, AddressRanges.NONE);
    }

    @Test
    void filtersRunInTheirOrderOnTheWayInAndInReverseOnTheWayOutAndAtTheEnd() {
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        Optional<IOException> unfinished = pipeline(Handoff.HERE, recording("a", null), recording("b", null))
                .run(exchange);

        assertTrue(unfinished.isEmpty());
        assertEquals(List.of("in a", "in b", "started /work", "handler", "out b", "out a", "write 200 admitted=1",
                "end b", "end a", "finished 200"), events);
        assertEquals("yes", exchange.written.headers().first("X-Seen-By-a"));
        assertTrue(exchange.written.headers().contains("X-Request-Id"), "the request-id filter's way out ran too");
        assertTrue(exchange.closed);
        assertEquals(0, admission.admitted(), "the admitted request let its place go at its end");
    }

    @Test
    void aFilterThatAnswersEndsTheWayInAndItsAnswerGoesOutThroughTheFiltersBeforeIt() {
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        pipeline(Handoff.HERE, recording("a", null), recording("b", Response.text(204, Response.TEXT, "")),
                recording("c", null)).run(exchange);

        assertEquals(List.of("in a", "in b", "out b", "out a", "write 204 admitted=0", "end b", "end a", "finished 204"), events);
        assertFalse(finished.getFirst().started(), "the route's handler never started");
        assertEquals(0, admission.admitted());
    }

    @Test
    void aFilterThatThrowsIsAnsweredByTheErrorMapperAndTheFiltersBeforeItStillSeeTheAnswer() {
        Filter refusing = new Filter() {
            @Override
            public String name() {
                return "refusing";
            }

            @Override
            public Response onRequest(Visit v) {
                throw new HttpError(418, "teapot", "short and stout");
            }
        };
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        pipeline(Handoff.HERE, recording("a", null), refusing).run(exchange);

        assertEquals(418, exchange.written.status());
        assertTrue(new String(exchange.written.body()).contains("\"error\":\"teapot\""));
        assertEquals("yes", exchange.written.headers().first("X-Seen-By-a"));
        assertEquals(List.of("in a", "out a", "write 418 admitted=0", "end a", "finished 418"), events);
    }

    /** A filter that looks at the visit, and may set what another filter already set. */
    private Filter looking(String name, java.util.function.Consumer<Visit> look) {
        return new Filter() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Response onRequest(Visit v) {
                look.accept(v);
                return null;
            }
        };
    }

    @Test
    void theRequestHandlersSeeIsBuiltAtRoutingWithTheVisitsIdAndTheBodyAndCallerReplaceItWhole() {
        List<io.loomgate.http.Request> seen = new ArrayList<>();
        Memory exchange = new Memory("GET", "/work?x=1", Headers.of("X-Request-Id", "mine"));
        pipeline(Handoff.HERE, looking("look", v -> {
            seen.add(v.request());
            v.caller(new io.loomgate.http.Caller(Optional.of("billing"), java.util.Map.of(), Headers.EMPTY, java.util.Set.of()));
            seen.add(v.request());
        })).run(exchange);

        io.loomgate.http.Request routed = seen.get(0);
        assertEquals(exchange.written.headers().first("X-Request-Id"), routed.id(), "the request carries the visit's id");
        assertEquals("mine", routed.clientId(), "and the client's own id beside it");
        assertEquals("/work", routed.path());
        assertEquals("1", routed.query().first("x").orElseThrow());
        assertTrue(routed.caller().name().isEmpty(), "no caller before auth");
        assertEquals("billing", seen.get(1).caller().name().orElseThrow());
        assertTrue(seen.get(0) != seen.get(1) && routed.caller().name().isEmpty(), "a new request, the first untouched");
        assertEquals("billing", finished.getFirst().caller(), "the summary reads the request's last state");
    }

    @Test
    void aFilterThatSetsWhatAnotherAlreadySetFailsLoudlyAndTheHandlerNeverRuns() {
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        pipeline(Handoff.HERE, looking("again", v -> v.identified("other", ""))).run(exchange);

        assertEquals(500, exchange.written.status());
        assertFalse(events.contains("handler"));
        assertEquals(0, admission.admitted());
    }

    /** A handoff that says what it was given. */
    private Handoff counting(List<String> handedOff) {
        return new Handoff() {
            @Override
            public <T> T work(Supplier<T> task) {
                handedOff.add("work");
                return task.get();
            }
        };
    }

    @Test
    void onlyAdmittedWorkIsHandedOffNotOperatorRoutesNorRefusals() {
        List<String> handedOff = new ArrayList<>();
        Pipeline p = pipeline(counting(handedOff));
        p.run(new Memory("GET", "/health", Headers.EMPTY));
        p.run(new Memory("GET", "/nowhere", Headers.EMPTY));
        assertEquals(List.of(), handedOff);
        p.run(new Memory("GET", "/work", Headers.EMPTY));
        assertEquals(List.of("work"), handedOff);
        assertEquals(List.of(200, 404, 200), finished.stream().map(RequestSummary::status).toList());
    }

    @Test
    void aHandoffThatNoLongerTakesWorkIsAnswered503AndThePlaceIsLetGo() {
        Handoff stopped = new Handoff() {
            @Override
            public <T> T work(Supplier<T> task) {
                throw new RejectedExecutionException("pool shut down");
            }
        };
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        pipeline(stopped).run(exchange);

        assertEquals(503, exchange.written.status());
        assertEquals("close", exchange.written.headers().first("Connection"));
        assertEquals(0, admission.admitted());
        assertFalse(events.contains("handler"));
    }

    @Test
    void aClientThatWentAwayIsReportedAndItsExchangeStillClosed() {
        Memory exchange = new Memory("GET", "/work", Headers.EMPTY);
        exchange.failWrite = new IOException("broken pipe");
        Optional<IOException> unfinished = pipeline(Handoff.HERE).run(exchange);

        assertEquals("broken pipe", unfinished.orElseThrow().getMessage());
        assertFalse(finished.getFirst().delivered());
        assertTrue(exchange.closed);
        assertEquals(0, admission.admitted());
    }

    private static final Draining NEVER_DRAINING = new Draining() {
        @Override
        public boolean isDraining() {
            return false;
        }

        @Override
        public boolean isNew(long arrivalNanos) {
            return false;
        }
    };

    @Test
    void theGatewaysFiltersAreDeclaredInThisOrder() {
        List<String> names = Filters.standard(router, NEVER_DRAINING, admission).stream().map(Filter::name).toList();
        assertEquals(List.of("request-id", "grpc", "connection", "framing", "route", "body", "compress", "cors", "pre-auth-limit",
                "auth-failures", "auth", "rate-limit", "drain", "admission", "tunnel"), names);
        List<String> admin = Filters.guarded(Filters.standard(router, NEVER_DRAINING, admission), new io.loomgate.edge.admin.AdminGuardFilter(io.loomgate.edge.admin.AdminHosts.of("127.0.0.1", 9091,
                List.of()))).stream().map(Filter::name).toList();
        assertEquals(names.indexOf("framing") + 1, admin.indexOf("admin-guard"), "the admin listener's guard, before routing");
        assertEquals(names.size() + 1, admin.size());
    }
}
