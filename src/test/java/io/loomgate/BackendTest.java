package io.loomgate;

import static io.loomgate.testing.Aggregations.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.Config;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.CallLog;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled backend, and the example route files in front of it: loomgate on both sides of HTTP. */
class BackendTest {

    private static Loomgate backend;
    private static TestClient backendClient;

    @BeforeAll
    static void start() throws Exception {
        Config config = ((CommandLine.Run) CommandLine.parse(List.of("backend", "--port", "0"), Map.of())).config();
        backend = Loomgate.start(config);
        backendClient = new TestClient(backend.baseUri());
    }

    @AfterAll
    static void stop() {
        backendClient.close();
        backend.close();
    }

    /** The example file, pointed at this test's backend instead of port 9090. */
    private static Path example(Path dir, String name) throws Exception {
        return example(dir, name, backend);
    }

    private static Path example(Path dir, String name, Loomgate at) throws Exception {
        String text = Files.readString(MainIT.HOME.resolve("examples/" + name))
                .replace("127.0.0.1:9090", "127.0.0.1:" + at.baseUri().getPort());
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void theBackendServesEachSimulatedServiceAsItsValue() {
        assertEquals("\"DB call completed\"", backendClient.get("/db?delay=db:1ms").body());
        assertEquals("{\"n\":100,\"primes\":25,\"sum\":1060}", backendClient.get("/compute?n=100").body());
        HttpResponse<String> failed = backendClient.get("/cache?fail=cache&delay=cache:1ms");
        assertEquals(502, failed.statusCode());
        assertEquals("{\"error\":\"cache: failed on request (?fail=cache)\"}", failed.body());
        HttpResponse<String> late = backendClient.get("/db?timeout=50ms");
        assertEquals(504, late.statusCode());
        assertTrue(late.body().startsWith("{\"error\":\"deadline of 50ms passed"), late.body());
        assertEquals("{\"data\":\"hello from the loomgate backend\"}", backendClient.get("/api/data").body());
    }

    @Test
    void theHttpExampleServesTheAggregatesOverHttp(@TempDir Path dir) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes",
                example(dir, "http-aggregate.json").toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/aggregate");
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("{\"service\":\"db\",\"state\":\"success\",\"durationMs\":"), r.body());
            assertTrue(r.body().contains("\"value\":{\"lines\":10000,\"bytes\":560000,\"crc32\":\"a6e9ae3c\"}"), r.body());
            assertEquals(Map.of("cache-1", "cancelled", "cache-2", "success", "database", "cancelled"),
                    states(client.getJson("/first-success")));
            assertTrue(client.get("/multi-aggregate?n=1000").body().contains("{\"n\":1000,\"primes\":168,\"sum\":76127}"),
                    "compute's n is forwarded");
        }
    }

    @Test
    void aLoomgateBehindALoomgateNeverWorksPastItsCallersDeadline(@TempDir Path dir) throws Exception {
        // The backend trusts the gateway in front of it, so it takes the gateway's X-Request-Id as its own id.
        Config slowDb = ((CommandLine.Run) CommandLine.parse(List.of("backend", "--port", "0", "--latency", "db=5s",
                "--trusted-proxies", "127.0.0.1"), Map.of())).config();
        try (Loomgate slowBackend = Loomgate.start(slowDb);
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes",
                example(dir, "http-aggregate.json", slowBackend).toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/aggregate?timeout=120ms");
            // the backend got a deadline a little shorter than the gateway's own, so two endings race: the
            // gateway's deadline (504), or the backend's 504 arriving first (a failed db call, 502); both are right
            assertTrue(r.statusCode() == 504 || (r.statusCode() == 502 && r.body().contains("db: answered HTTP 504")),
                    r.statusCode() + " " + r.body());
            String id = r.headers().firstValue("X-Request-Id").orElseThrow();
            CallLog calls = slowBackend.upstreams().calls();
            Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> calls.callsOf(id).size() == 2);
            CallRecord db = calls.callsOf(id).stream()
                    .filter(c -> c.upstream().equals(UpstreamId.of("db"))).findFirst().orElseThrow();
            // Its own deadline ends it, or, on loomgate's server, the gateway hanging up first cancels it.
            // Interrupted either way: a 5 s call that ran to its end would be a success.
            assertTrue(db.outcome() instanceof Outcome.TimedOut || db.outcome() instanceof Outcome.Cancelled,
                    "the backend's own db call met the caller's deadline: " + db.outcome());
        }
    }

    @Test
    void theProxyExampleForwardsApiToTheBackend(@TempDir Path dir) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes",
                example(dir, "proxy.json").toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/api/data");
            assertEquals(200, r.statusCode());
            assertEquals("{\"data\":\"hello from the loomgate backend\"}", r.body());
            assertEquals(404, client.get("/api/nothing-here").statusCode(), "the backend's own 404 comes through");
        }
    }

    @Test
    void theBackendServesAJsonApi() throws Exception {
        assertEquals("{\"id\":7,\"name\":\"Ada Lovelace\",\"teamId\":3}", backendClient.get("/users/7").body());
        assertEquals("{\"id\":3,\"name\":\"Compilers\"}", backendClient.get("/teams/3").body());
        assertEquals("{\"sku\":\"b2\",\"title\":\"Pencil\",\"price\":1.2}", backendClient.get("/items/b2").body());
        assertEquals("{\"userId\":8,\"items\":[{\"sku\":\"b2\",\"qty\":1}]}", backendClient.get("/orders?userId=8").body());
        assertEquals(404, backendClient.get("/users/404").statusCode());
        HttpRequest post = HttpRequest.newBuilder(backend.uri("/orders")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":8,\"sku\":\"a1\"}")).build();
        HttpResponse<String> created = backendClient.http().send(post, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, created.statusCode(), created.body());
        Map<String, Object> order = TestClient.json(created);
        assertEquals(8L, order.get("userId"));
        assertTrue(order.get("id") instanceof Long, created.body());
    }

    @Test
    void theComposeExampleRunsEachCallOnItsCriticalPath(@TempDir Path dir) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes",
                example(dir, "compose.json").toString()));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/users/7/overview");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("{\"name\":\"Ada Lovelace\",\"team\":\"Compilers\",\"orders\":[{\"sku\":\"a1\",\"qty\":2},"
                    + "{\"sku\":\"b2\",\"qty\":1},{\"sku\":\"c3\",\"qty\":5}],\"items\":[{\"sku\":\"a1\",\"title\":"
                    + "\"Notebook\",\"price\":4.5},{\"sku\":\"b2\",\"title\":\"Pencil\",\"price\":1.2},{\"sku\":\"c3\","
                    + "\"title\":\"Ruler\",\"price\":2.0}],\"errors\":[]}", r.body());
            Map<String, double[]> timing = serverTiming(r.headers().firstValue("Server-Timing").orElseThrow());
            assertTrue(timing.get("team")[0] >= timing.get("user")[0] + timing.get("user")[1] - 0.5,
                    "team started after user ended: " + r.headers().firstValue("Server-Timing"));
            assertTrue(timing.get("items")[0] >= timing.get("orders")[0] + timing.get("orders")[1] - 0.5,
                    "items started after orders ended: " + r.headers().firstValue("Server-Timing"));

            assertEquals(404, client.get("/users/404/overview").statusCode(), "a missing user stays a 404");
            assertEquals("{\"name\":\"Grace Hopper\",\"team\":\"Compilers\",\"orders\":[]}",
                    client.get("/users/9/summary").body());
            HttpRequest post = HttpRequest.newBuilder(gate.uri("/orders")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":8,\"sku\":\"b2\"}")).build();
            HttpResponse<String> created = client.http().send(post, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, created.statusCode(), created.body());
            assertEquals("Alan Turing", TestClient.json(created).get("customer"), "the read used the write's answer");
        }
    }

    /** Each entry of a composed route's Server-Timing: name to {start, dur} in milliseconds. */
    private static Map<String, double[]> serverTiming(String header) {
        Map<String, double[]> entries = new java.util.HashMap<>();
        for (String entry : header.split(", ")) {
            String[] parts = entry.split(";");
            double start = -1;
            double dur = -1;
            for (String p : parts) {
                if (p.startsWith("start=")) {
                    start = Double.parseDouble(p.substring(6));
                } else if (p.startsWith("dur=")) {
                    dur = Double.parseDouble(p.substring(4));
                }
            }
            entries.put(parts[0], new double[] {start, dur});
        }
        return entries;
    }
}
