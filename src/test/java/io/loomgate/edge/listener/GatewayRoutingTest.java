package io.loomgate.edge.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import io.loomgate.testing.TestRoutes;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Routing, the JSON error shape and the 500 path, over real HTTP on 127.0.0.1. */
class GatewayRoutingTest {

    private static Loomgate gate;
    private static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        gate = Loomgate.start(CommandLine.config("--port", "0"), TestRoutes.all());
        client = new TestClient(gate.baseUri());
    }

    @AfterAll
    static void stop() {
        client.close();
        gate.close();
    }

    private static void assertJsonError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        Map<String, Object> body = TestClient.json(r);
        assertEquals((long) status, body.get("status"));
        assertEquals(code, body.get("error"));
    }

    @Test
    void healthIsUp() {
        HttpResponse<String> r = client.get("/health");
        assertEquals(200, r.statusCode());
        Map<String, Object> body = TestClient.json(r);
        assertEquals("UP", body.get("status"));
        assertEquals("virtual", body.get("threads"));
        assertTrue((Long) body.get("uptimeMs") >= 0);
        assertTrue(r.headers().firstValue("X-Request-Id").isPresent());
    }

    private static HttpResponse<String> getWithHeader(String path, String name, String value) throws Exception {
        return client.http().send(java.net.http.HttpRequest.newBuilder(gate.uri(path)).header(name, value).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTrustedProxysRequestIdIsTakenAsTheIdSoOneIdFollowsARequestThroughAFleet() throws Exception {
        try (Loomgate behind = Loomgate.start(CommandLine.config("--port", "0", "--trusted-proxies", "127.0.0.1"));
             TestClient proxy = new TestClient(behind.baseUri())) {
            HttpResponse<String> r = proxy.get("/aggregate?delay=db:1ms", "X-Request-Id", "edge-7f3");
            assertEquals("edge-7f3", r.headers().firstValue("X-Request-Id").orElseThrow());
            assertEquals(2, behind.upstreams().calls().callsOf("edge-7f3").size());
            String tooLong = "x".repeat(65);
            assertNotEquals(tooLong, proxy.get("/health", "X-Request-Id", tooLong).headers().firstValue("X-Request-Id").orElseThrow(),
                    "even a trusted proxy's id must be 1 to 64 visible characters");
        }
    }

    @Test
    void aClientsRequestIdIsKeptBesideAnIdOfLoomgatesOwnSoNoTwoRequestsShareOne() throws Exception {
        HttpResponse<String> first = getWithHeader("/aggregate?delay=db:1ms", "X-Request-Id", "trace-42.abc:Z");
        HttpResponse<String> second = getWithHeader("/aggregate?delay=db:1ms", "X-Request-Id", "trace-42.abc:Z");
        String id = first.headers().firstValue("X-Request-Id").orElseThrow();
        assertNotEquals("trace-42.abc:Z", id, "a client that is not a trusted proxy does not choose the id");
        assertNotEquals(id, second.headers().firstValue("X-Request-Id").orElseThrow(), "two requests, two ids");
        assertEquals(id, TestClient.json(first).get("requestId"));
        assertEquals(2, gate.upstreams().calls().callsOf(id).size(), "the calls carry loomgate's id");
        Map<String, Object> timeline = client.getJson("/debug/requests/" + id);
        assertEquals("trace-42.abc:Z", timeline.get("clientId"), "the client's own id is kept beside it, for correlation");
    }

    @Test
    void anUnacceptableRequestIdIsReplaced() throws Exception {
        for (String bad : java.util.List.of("x".repeat(65), "has space", "tab\there")) {
            String echoed = getWithHeader("/health", "X-Request-Id", bad).headers().firstValue("X-Request-Id").orElseThrow();
            assertFalse(echoed.equals(bad), "kept " + bad);
            assertTrue(echoed.matches("[0-9a-f]{6}-[0-9a-f]+"), echoed);
        }
    }

    @Test
    void theIndexListsTheRoutesAsJsonOrHtml() throws Exception {
        Map<String, Object> index = client.getJson("/");
        assertEquals("loomgate", index.get("service"));
        @SuppressWarnings("unchecked")
        var routes = (java.util.List<Map<String, Object>>) index.get("routes");
        assertEquals(10, routes.size());
        assertEquals(Map.of("path", "/aggregate", "policy", "all", "engine", "structured",
                "upstreams", java.util.List.of("db", "file")), routes.get(4));
        assertEquals("common-pool", routes.get(8).get("executor"));
        HttpResponse<String> html = getWithHeader("/", "Accept", "text/html,application/xhtml+xml");
        assertEquals("text/html; charset=utf-8", html.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(html.body().contains("<a href=\"/first-success\">/first-success</a>"), html.body());
    }

    @Test
    void aKnobNamingAServiceTheRouteDoesNotCallIs400() {
        HttpResponse<String> r = client.get("/block?fail=cache");
        assertJsonError(r, 400, "bad_parameter");
        assertEquals("fail must be a service /block calls (db), got 'cache'", TestClient.json(r).get("message"));
        assertJsonError(client.get("/aggregate?delay=cache-1:5ms"), 400, "bad_parameter");
    }

    @Test
    void unknownPathIs404Json() {
        HttpResponse<String> r = client.get("/nope");
        assertJsonError(r, 404, "not_found");
        assertEquals("no route for /nope", TestClient.json(r).get("message"));
    }

    @Test
    void wrongMethodIs405WithAllow() {
        HttpResponse<String> r = client.send("POST", "/health");
        assertJsonError(r, 405, "method_not_allowed");
        assertEquals("GET, HEAD, OPTIONS", r.headers().firstValue("Allow").orElseThrow());
        assertJsonError(client.send("DELETE", "/health"), 405, "method_not_allowed");
    }

    @Test
    void unknownMethodIs501() {
        assertJsonError(client.send("BREW", "/health"), 501, "not_implemented");
    }

    @Test
    void headReturnsTheHeadersOfGetWithoutABody() {
        HttpResponse<String> get = client.get("/test/slow?ms=0");
        HttpResponse<String> head = client.send("HEAD", "/test/slow?ms=0");
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals(String.valueOf(get.body().length()), head.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("application/json", head.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(404, client.send("HEAD", "/nope").statusCode());
    }

    @Test
    void optionsListsTheAllowedMethods() {
        HttpResponse<String> r = client.send("OPTIONS", "/health");
        assertEquals(204, r.statusCode());
        assertEquals("GET, HEAD, OPTIONS", r.headers().firstValue("Allow").orElseThrow());
    }

    @Test
    void badPathsAre400Json() {
        assertJsonError(client.get("/health;x=1"), 400, "bad_path");
        assertJsonError(client.get("/%2e%2e/health"), 400, "bad_path");
    }

    @Test
    void aThrowingHandlerGivesA500WithAnIdAndNoTrace() {
        try (LogCapture log = LogCapture.of("loomgate")) {
            HttpResponse<String> r = client.get("/test/boom");
            assertJsonError(r, 500, "internal");
            String id = (String) TestClient.json(r).get("id");
            assertEquals(r.headers().firstValue("X-Request-Id").orElseThrow(), id);
            assertFalse(r.body().contains(TestRoutes.SECRET), r.body());
            assertFalse(r.body().contains("Exception"), r.body());
            assertFalse(r.body().contains("io.loomgate"), r.body());

            String logged = log.lines().stream().filter(l -> l.contains(id)).findFirst().orElseThrow();
            assertTrue(logged.contains(TestRoutes.SECRET), logged);
            assertTrue(logged.contains("\tat "), "the log has the stack trace: " + logged);
        }
        assertEquals(200, client.get("/health").statusCode(), "the server carries on");
    }
}
