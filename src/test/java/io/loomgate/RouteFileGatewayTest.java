package io.loomgate;

import static io.loomgate.testing.Aggregations.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A route file written from scratch serves its own routes, with no code change; flags still override it. */
class RouteFileGatewayTest {

    private static final String SCRATCH = """
            {"upstreams": [
               {"id": "orders", "kind": "simulated", "service": "db", "latency": "60ms", "value": {"orders": 3}},
               {"id": "stock",  "kind": "simulated", "service": "cache", "latency": "20ms"}],
             "clientKnobs": true, "routes": [
               {"path": "/shop/overview", "policy": "all", "upstreams": ["orders", "stock"], "timeout": "400ms"},
               {"path": "/shop/either", "policy": "any", "upstreams": ["orders", "stock"]}]}
            """;

    @TempDir
    Path dir;

    private Path write(String json) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void twoSimulatedUpstreamsUnderAllAtANewPath() throws Exception {
        Path file = write(SCRATCH);
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/shop/overview");
            assertEquals(200, r.statusCode(), r.body());
            Map<String, Object> body = TestClient.json(r);
            assertEquals("/shop/overview", body.get("endpoint"));
            assertEquals("all", body.get("policy"));
            assertEquals(400L, body.get("timeoutMs"), "the route's own default deadline");
            assertEquals(Map.of("orders", "success", "stock", "success"), states(body));
            assertTrue(r.body().contains("\"value\":{\"orders\":3}"), r.body());
            long ordersMs = gate.upstreams().calls().callsOf(r.headers().firstValue("X-Request-Id").orElseThrow())
                    .stream().filter(c -> c.upstream().equals(UpstreamId.of("orders"))).findFirst().orElseThrow()
                    .duration().toMillis();
            assertTrue(ordersMs >= 55, "orders slept its declared 60 ms: " + ordersMs);

            HttpResponse<String> failed = client.get("/shop/overview?fail=stock");
            assertEquals(502, failed.statusCode());
            assertEquals(Map.of("orders", "cancelled", "stock", "failed"), states(TestClient.json(failed)));
            var orders = gate.upstreams().calls().callsOf(failed.headers().firstValue("X-Request-Id").orElseThrow())
                    .stream().filter(c -> c.upstream().equals(UpstreamId.of("orders"))).findFirst().orElseThrow();
            assertEquals(Outcome.CANCELLED, orders.outcome(), "the sibling really stopped");

            Map<String, Object> either = client.getJson("/shop/either");
            assertEquals(Map.of("orders", "cancelled", "stock", "success"), states(either));
            assertEquals(404, client.get("/block").statusCode(), "the built-in routes are not served");
            Map<?, ?> services = (Map<?, ?>) client.getJson("/metrics?format=json").get("services");
            assertEquals(java.util.Set.of("orders", "stock"), services.keySet(), "metrics list the file's upstreams");
        }
    }

    @Test
    void withoutClientKnobsAClientCanNeitherFailCallsNorHoldThemLonger() throws Exception {
        Path file = write("""
                {"upstreams": [{"id": "orders", "kind": "simulated", "service": "db", "latency": "20ms"}],
                 "routes": [
                   {"path": "/locked", "policy": "single", "upstreams": ["orders"], "timeout": "1s"},
                   {"path": "/open", "policy": "single", "upstreams": ["orders"], "clientKnobs": true}]}
                """);
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/locked?fail=orders&delay=orders:20s");
            // A 200 within the route's 1 s: neither fail= nor a 20 s delay= took effect.
            assertEquals(200, r.statusCode(), "fail= and delay= are ordinary query parameters here: " + r.body());
            assertEquals(200, client.get("/locked?timeout=500ms").statusCode(), "shortening is always allowed");
            HttpResponse<String> longer = client.get("/locked?timeout=20s");
            assertEquals(400, longer.statusCode());
            assertTrue(longer.body().contains("clientKnobs"), "the 400 says how to allow it: " + longer.body());
            assertEquals(502, client.get("/open?fail=orders").statusCode(), "a route that opts in still injects faults");
            assertEquals(200, client.get("/open?timeout=20s").statusCode(), "and may lengthen up to --max-timeout");
        }
    }

    @Test
    void aQuorumRouteAnswersAtKAndTheCancelledCallReallyStops() throws Exception {
        Path file = write("""
                {"upstreams": [
                   {"id": "a", "kind": "simulated", "service": "cache", "latency": "40ms"},
                   {"id": "b", "kind": "simulated", "service": "cache", "latency": "90ms"},
                   {"id": "c", "kind": "simulated", "service": "cache", "latency": "5s"}],
                 "clientKnobs": true, "routes": [{"path": "/two-of-three", "policy": "quorum", "quorum": 2, "upstreams": ["a", "b", "c"]}]}
                """);
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/two-of-three");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("quorum", TestClient.json(r).get("policy"));
            assertEquals(Map.of("a", "success", "b", "success", "c", "cancelled"), states(TestClient.json(r)));
            var c = gate.upstreams().calls().callsOf(r.headers().firstValue("X-Request-Id").orElseThrow()).stream()
                    .filter(x -> x.upstream().equals(UpstreamId.of("c"))).findFirst().orElseThrow();
            assertEquals(Outcome.CANCELLED, c.outcome(), "c was interrupted: its 5 s call did not end");

            HttpResponse<String> failed = client.get("/two-of-three?fail=a,b");
            assertEquals(502, failed.statusCode(), failed.body());
            assertEquals("quorum of 2 out of reach: 2 of 3 failed: a, b", TestClient.json(failed).get("error"));
            assertEquals("cancelled", states(TestClient.json(failed)).get("c"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBreakerOpensFailsFastWithoutCallingAndShowsInTheMetrics() throws Exception {
        Path file = write("""
                {"upstreams": [
                   {"id": "orders", "kind": "simulated", "service": "db", "latency": "5ms",
                    "breaker": {"consecutiveFailures": 3, "coolDown": "300ms"}}],
                 "clientKnobs": true, "routes": [{"path": "/orders", "policy": "single", "upstreams": ["orders"]}]}
                """);
        java.util.concurrent.atomic.AtomicInteger called = new java.util.concurrent.atomic.AtomicInteger();
        io.loomgate.core.port.Upstream counting = () -> {
            called.incrementAndGet();
            return io.loomgate.core.call.Value.text("row");
        };
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()),
                java.util.List.of(), Map.of(UpstreamId.of("orders"), counting));
             TestClient client = new TestClient(gate.baseUri())) {
            for (int i = 0; i < 3; i++) {
                assertEquals(502, client.get("/orders?fail=orders").statusCode());
            }
            assertEquals(3, called.get());
            HttpResponse<String> fast = client.get("/orders");
            assertEquals(502, fast.statusCode());
            String error = (String) io.loomgate.testing.Aggregations.part(TestClient.json(fast), "orders").get("error");
            assertTrue(error.startsWith("orders: circuit open (3 failures in a row); not called; next try in "), error);
            assertEquals(3, called.get(), "the open breaker did not call the upstream");
            Map<String, Object> breakers = (Map<String, Object>) client.getJson("/metrics?format=json").get("breakers");
            assertEquals(Map.of("state", "open", "opened", 1L, "halfOpened", 0L, "closed", 0L), breakers.get("orders"));
            assertTrue(client.get("/metrics?format=prometheus").body()
                    .contains("loomgate_breaker_state{service=\"orders\",state=\"open\"} 1"));

            Thread.sleep(350);
            assertEquals(200, client.get("/orders").statusCode(), "after the cool-down, the probe goes through");
            assertEquals(4, called.get());
            Map<String, Object> after = (Map<String, Object>) client.getJson("/metrics?format=json").get("breakers");
            assertEquals(Map.of("state", "closed", "opened", 1L, "halfOpened", 1L, "closed", 1L), after.get("orders"));
        }
    }

    @Test
    void flagsOverrideTheFilesLatencyAndFailureRate() throws Exception {
        Path file = write(SCRATCH);
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString(),
                "--latency", "orders=0ms", "--failure-rate", "stock=1"));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/shop/overview");
            assertEquals(502, r.statusCode());
            assertTrue(r.body().contains("stock: random failure (rate 1.0)"), r.body());
            assertEquals(Map.of("orders", "success", "stock", "failed"), states(TestClient.json(r)),
                    "with the file's 60 ms, orders would still be running when stock fails at 20 ms, and be cancelled");
        }
    }

    @Test
    void flagsNamingAnUndeclaredUpstreamStopTheStart() throws Exception {
        UsageException e = assertThrows(UsageException.class,
                () -> Loomgate.start(CommandLine.config("--port", "0", "--latency", "bogus=1s")));
        assertEquals("--latency names an unknown service 'bogus'; known: db, file, compute, cache, cache-1, cache-2, "
                + "database, file-flaky", e.getMessage());
        Path file = write(SCRATCH);
        UsageException rate = assertThrows(UsageException.class, () -> Loomgate.start(CommandLine.config(
                "--port", "0", "--routes", file.toString(), "--failure-rate", "db=0.5")));
        assertEquals("--failure-rate names an unknown service 'db'; known: orders, stock", rate.getMessage());
    }

    @Test
    void aRouteTimeoutPastTheMaximumStopsTheStart() throws Exception {
        Path file = write(SCRATCH.replace("\"400ms\"", "\"45s\""));
        UsageException e = assertThrows(UsageException.class,
                () -> Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString())));
        assertEquals(file + ": routes[0].timeout must not exceed --max-timeout (30s); got '45s'", e.getMessage());
    }

    @Test
    void pathParametersFillAnHttpUpstreamsUrlUnderEveryPolicy() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/things/", "{\"thing\":true}")) {
            Path file = write("""
                    {"upstreams": [{"id": "thing", "kind": "http", "url": "%s/things/{id}?v={query.v}"},
                                   {"id": "stock", "kind": "simulated", "service": "cache", "latency": "5ms"}],
                     "routes": [{"path": "/things/{id}", "policy": "all", "upstreams": ["thing", "stock"]},
                                {"path": "/things/{id}/first", "policy": "any", "upstreams": ["thing"]},
                                {"path": "/things/{id}/hedged", "policy": "hedge", "upstreams": ["thing"]}]}
                    """.formatted(api.url()));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
                 TestClient client = new TestClient(gate.baseUri())) {
                assertEquals(200, client.get("/things/a%20b?v=2").statusCode());
                assertEquals(200, client.get("/things/42/first").statusCode());
                assertEquals(200, client.get("/things/x/hedged?v=%26").statusCode());
                assertEquals(List.of("/things/a%20b?v=2", "/things/42?v=", "/things/x?v=%26"),
                        api.requests().stream().map(ApiUpstream.Request::target).distinct().toList(),
                        "each call with its own request's values (a hedge's backup with the same)");
            }
        }
    }
}
