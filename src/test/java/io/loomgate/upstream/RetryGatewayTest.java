package io.loomgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.ScriptedUpstream;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retries through a real loomgate and a real upstream that fails on purpose: what is retried (an
 * idempotent call that failed on its own), what never is (a write, a 500, an open breaker, a call
 * with no time left or no budget), and that each try shows on the request's timeline and in the
 * metrics. Hedges draw on the same budget.
 */
class RetryGatewayTest {

    @TempDir
    Path dir;
    private ApiUpstream api;
    private FileGate served;
    private Loomgate gate;
    private TestClient client;

    /** Upstreams {@code api} (its own timeout 200 ms) and {@code store} on the test's upstream, both retried as {@code retry} says. */
    private void serve(String retry, String routes) throws Exception {
        serveWith("""
                {"id": "api", "kind": "http", "url": "%s", "timeout": "200ms", "retry": %s},
                {"id": "store", "kind": "http", "url": "%s", "retry": %s}""".formatted(api.url(), retry, api.url(), retry), routes);
    }

    private void serveWith(String upstreams, String routes) throws Exception {
        served = FileGate.start(dir, upstreams, List.of(routes));
        gate = served.gate();
        client = served.client();
    }

    @AfterEach
    void stop() throws Exception {
        if (served != null) {
            served.close();
        }
        if (api != null) {
            api.close();
        }
    }

    private static final String READ = """
            {"path": "/read", "policy": "compose", "timeout": "5s", "calls": {"r": {"upstream": "api", "path": "/r"}}}""";

    @Test
    @SuppressWarnings("unchecked")
    void aReadThatFailsOnItsOwnIsTriedAgainAndEachTryIsOnTheTimeline() throws Exception {
        api = ApiUpstream.start().answer("/r", "{\"ok\":1}").failFirst("/r", 2, 503);
        serve("{\"attempts\": 3, \"backoff\": \"10ms\"}", READ);

        HttpResponse<String> r = client.get("/read");

        assertEquals(200, r.statusCode(), r.body());
        assertEquals(3, api.requests().size(), "two 503s, then the answer");
        Map<String, Object> timeline = client.getJson("/debug/requests/" + r.headers().firstValue("X-Request-Id").orElseThrow());
        List<Map<String, Object>> attempts = (List<Map<String, Object>>) timeline.get("attempts");
        assertEquals(List.of("failed", "failed", "success"), attempts.stream().map(a -> a.get("outcome")).toList());
        assertEquals(List.of(1L, 2L, 3L), attempts.stream().map(a -> a.get("attempt")).toList());
        assertTrue(((String) attempts.getFirst().get("detail")).contains("answered HTTP 503"), attempts.toString());
        Map<String, Object> retries = (Map<String, Object>) ((Map<String, Object>) client.getJson("/metrics?format=json")
                .get("retries")).get("api");
        assertEquals(Map.of("sent", 2L, "refusedByBudget", 0L), retries);
    }

    @Test
    void aDroppedConnectionOrItsOwnTimeoutIsRetriedAndTheSlowTryIsClosed() throws Exception {
        api = ApiUpstream.start().answer("/r", "{\"ok\":1}").answer("/h", "{\"ok\":2}")
                .failFirst("/r", 1, ApiUpstream.DROP).failFirst("/h", 1, ApiUpstream.HANG);
        serve("{\"attempts\": 2, \"backoff\": \"0ms\"}", READ + """
                , {"path": "/hang", "policy": "compose", "timeout": "5s", "calls": {"h": {"upstream": "api", "path": "/h"}}}""");

        assertEquals(200, client.get("/read").statusCode(), "a dropped connection");
        assertEquals(200, client.get("/hang").statusCode(), "no answer within the upstream's 200ms timeout");
        api.await("closed /h");
    }

    @Test
    void aWriteAFiveHundredAndACallWithNoTimeLeftAreNeverRetried() throws Exception {
        api = ApiUpstream.start().answer("/w", "{}").answer("/e", "{}").answer("/r", "{}")
                .failFirst("/w", 5, ApiUpstream.DROP).failFirst("/e", 5, 500).failFirst("/r", 5, 503);
        serve("{\"attempts\": 3, \"backoff\": \"300ms\"}", """
                {"path": "/write", "policy": "compose", "methods": ["POST"],
                 "calls": {"w": {"upstream": "store", "path": "/w", "body": "request"}}},
                {"path": "/error", "policy": "compose", "calls": {"e": {"upstream": "api", "path": "/e"}}},
                {"path": "/late", "policy": "compose", "timeout": "400ms", "calls": {"r": {"upstream": "api", "path": "/r"}}}""");

        HttpRequest post = HttpRequest.newBuilder(URI.create(gate.baseUri() + "/write"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build();
        assertEquals(502, client.http().send(post, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(502, client.get("/error").statusCode());
        HttpResponse<String> late = client.get("/late");
        assertEquals(502, late.statusCode(), late.body());
        assertEquals(Map.of("/w", 1L, "/e", 1L, "/r", 1L), counts(), "each sent once: a write, a 500, and a 503 with no"
                + " time left for a 300 ms pause and another try");
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PATCH", "DELETE"})
    void aBodilessWriteIsSentOnceEvenOnAnUpstreamThatRetries(String method) throws Exception {
        api = ApiUpstream.start().answer("/w", "{}").failFirst("/w", 5, 503);
        serve("{\"attempts\": 3, \"backoff\": \"0ms\"}", """
                {"path": "/write", "policy": "compose", "calls": {"w": {"upstream": "store", "path": "/w", "method": "%s"}}}"""
                .formatted(method));
        assertEquals(502, client.get("/write").statusCode());
        assertEquals(1L, counts().get("/w"), "a " + method + " without a body is not idempotent unless the route says so: sent once");
        assertEquals(method, api.requests().getFirst().method());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBudgetsFloorLetsItsOneRetryThroughWhenTheShareIsEmpty() throws Exception {
        api = ApiUpstream.start().answer("/r", "{}").failFirst("/r", 100, 503);
        // a share of 0 and a floor of one retry every 10 s (a bucket of one, full at start)
        serve("{\"attempts\": 2, \"backoff\": \"0ms\", \"budget\": 0, \"minPerSecond\": 0.1}", READ);
        for (int i = 0; i < 8; i++) {
            assertEquals(502, client.get("/read").statusCode());
        }
        assertEquals(9L, counts().get("/r"), "8 first tries and the floor's one retry");
        Map<String, Object> retries = (Map<String, Object>) ((Map<String, Object>) client.getJson("/metrics?format=json")
                .get("retries")).get("api");
        assertEquals(Map.of("sent", 1L, "refusedByBudget", 7L), retries);
    }

    @Test
    void anEmptyBudgetRefusesRetriesAndHedgesAndSaysSo() throws Exception {
        api = ApiUpstream.start().answer("/r", "{}").answer("/slow", "{}").failFirst("/r", 5, 503).hold("/slow");
        String empty = "{\"attempts\": 3, \"backoff\": \"0ms\", \"budget\": 0, \"minPerSecond\": 0}";
        serveWith("""
                {"id": "api", "kind": "http", "url": "%s", "retry": %s},
                {"id": "slow", "kind": "http", "url": "%s/slow", "retry": %s}""".formatted(api.url(), empty, api.url(), empty),
                READ + """
                , {"path": "/hedged", "policy": "hedge", "upstreams": ["slow"], "timeout": "300ms",
                   "hedge": {"after": "20ms", "budget": 1, "minPerSecond": 100}}""");

        HttpResponse<String> r = client.get("/read");
        assertEquals(502, r.statusCode());
        assertEquals(1L, counts().get("/r"), "no retry: the budget is empty");
        HttpResponse<String> hedged = client.get("/hedged");
        assertEquals(504, hedged.statusCode(), hedged.body());
        assertTrue(hedged.body().contains("\"hedge\":{\"sent\":false"), "the route's hedge budget allowed it, the upstream's did not: "
                + hedged.body());
        assertEquals(1L, counts().get("/slow"));
        assertTrue(client.get("/metrics").body().contains("refused by budget"), "the text metrics list the refusal");
    }

    @Test
    void aProxiedGetIsRetriedOnA503AndAProxiedPostIsNot() throws Exception {
        api = ApiUpstream.start().answer("/p", "{\"ok\":1}").failFirst("/p", 1, 503);
        serveWith("{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\", \"retry\": {\"attempts\": 2}}",
                "{\"path\": \"/px/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}");

        HttpResponse<String> get = client.get("/px/p");
        assertEquals(200, get.statusCode(), "the 503 was thrown away and the GET sent again");
        assertEquals("{\"ok\":1}", get.body());
        api.failFirst("/p", 1, 503);
        HttpRequest post = HttpRequest.newBuilder(URI.create(gate.baseUri() + "/px/p"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        assertEquals(503, client.http().send(post, HttpResponse.BodyHandlers.ofString()).statusCode(),
                "a POST's 503 is the client's to see");
        assertEquals(3L, counts().get("/p"));
        api.failFirst("/p", 5, 503);
        HttpResponse<String> exhausted = client.get("/px/p");
        assertEquals(503, exhausted.statusCode(), "out of tries: the upstream's own last answer, as it came");
        assertEquals("{\"error\":\"failing on purpose\"}", exhausted.body());
        assertEquals(5L, counts().get("/p"));
    }

    @Test
    void anAnswerThatBreaksHttpIsNeverRetriedWhereAWellFormed503Is() throws Exception {
        String retry = "\"retry\": {\"attempts\": 3, \"backoff\": \"0ms\"}";
        try (ScriptedUpstream raw = ScriptedUpstream.start()
                .raw("framing", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
                .raw("clean", "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")) {
            serveWith("""
                    {"id": "framing", "kind": "http", "url": "%s", %s},
                    {"id": "clean", "kind": "http", "url": "%s", %s},
                    {"id": "site", "kind": "http", "url": "%s", %s}""".formatted(raw.url("/case/framing"), retry,
                    raw.url("/case/clean"), retry, raw.url("/case/"), retry), """
                    {"path": "/fan", "policy": "all", "upstreams": ["framing"]},
                    {"path": "/read", "policy": "compose", "calls": {"r": {"upstream": "framing"}}},
                    {"path": "/px/*", "policy": "proxy", "upstreams": ["site"]},
                    {"path": "/control", "policy": "all", "upstreams": ["clean"]}""");

            assertEquals(502, client.get("/fan").statusCode());
            assertEquals(502, client.get("/read").statusCode());
            assertEquals(502, client.get("/px/framing").statusCode());
            assertEquals(3, raw.count("/case/framing"), "one request for each route: an answer that breaks HTTP was"
                    + " read, so it is not sent again");
            assertEquals(502, client.get("/control").statusCode());
            assertEquals(3, raw.count("/case/clean"), "a well-formed 503 is tried three times");
        }
    }

    private Map<String, Long> counts() {
        Map<String, Long> c = new java.util.TreeMap<>();
        for (ApiUpstream.Request r : api.requests()) {
            c.merge(r.target().contains("?") ? r.target().substring(0, r.target().indexOf('?')) : r.target(), 1L, Long::sum);
        }
        return c;
    }
}
