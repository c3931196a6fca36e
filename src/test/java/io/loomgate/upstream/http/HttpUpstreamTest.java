package io.loomgate.upstream.http;

import static io.loomgate.testing.Aggregations.part;
import static io.loomgate.testing.Aggregations.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.BothModes;
import io.loomgate.testing.MisbehavingUpstream;
import io.loomgate.testing.TestClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** HTTP upstreams against a real, misbehaving upstream on 127.0.0.1: values, context, and every fault. */
class HttpUpstreamTest {

    private static MisbehavingUpstream upstream;
    private static BothModes gates;
    private static TestClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        upstream = MisbehavingUpstream.start();
        int refused = MisbehavingUpstream.refusedPort();
        String[][] ups = {
                {"json", "/json"}, {"text", "/text"}, {"binary", "/binary"}, {"echo", "/echo"},
                {"bad-json", "/bad-json"}, {"redirect", "/redirect"}, {"error", "/status?code=503"},
                {"reset", "/reset"}, {"hang", "/hang-after-headers"}, {"big", "/big?bytes=5000"},
                {"slow", "/slow?ms=800"}, {"fail-fast", "/status?code=500&ms=50"}, {"quick", "/slow?ms=60"}};
        StringBuilder upstreams = new StringBuilder();
        StringBuilder routes = new StringBuilder();
        for (String[] u : ups) {
            upstreams.append("{\"id\":\"").append(u[0]).append("\",\"kind\":\"http\",\"url\":\"").append(upstream.url(u[1]))
                    .append("\",\"maxBodyBytes\":1000").append(u[0].equals("echo") ? ",\"forwardHeaders\":[\"Authorization\",\"X-Custom\"],\"forwardQuery\":[\"q\"]" : "")
                    .append("},\n");
            routes.append("{\"path\":\"/one/").append(u[0]).append("\",\"policy\":\"single\",\"upstreams\":[\"").append(u[0]).append("\"]},\n");
        }
        upstreams.append("{\"id\":\"refused\",\"kind\":\"http\",\"url\":\"http://127.0.0.1:").append(refused).append("/\"},\n");
        upstreams.append("{\"id\":\"nowhere\",\"kind\":\"http\",\"url\":\"http://no-such-host.invalid/x\"},\n");
        upstreams.append("{\"id\":\"hang-capped\",\"kind\":\"http\",\"url\":\"").append(upstream.url("/hang-after-headers")).append("\",\"timeout\":\"300ms\"}");
        routes.append("""
                {"path":"/one/refused","policy":"single","upstreams":["refused"]},
                {"path":"/one/nowhere","policy":"single","upstreams":["nowhere"]},
                {"path":"/one/hang-capped","policy":"single","upstreams":["hang-capped"]},
                {"path":"/all","policy":"all","upstreams":["slow","fail-fast"]},
                {"path":"/any","policy":"any","upstreams":["slow","quick"]},
                {"path":"/deadline","policy":"all","upstreams":["slow","json"],"timeout":"200ms"},
                {"path":"/fallback","policy":"fallback","upstreams":["json","error"],"fallbacks":{"error":{"cached":true}}}""");
        dir = Files.createTempDirectory("loomgate-http-test");
        Path file = dir.resolve("routes.json");
        Files.writeString(file, "{\"upstreams\":[" + upstreams + "],\n\"routes\":[" + routes + "]}");
        gates = BothModes.withRoutes(file);
        client = gates.client("virtual");
    }

    @AfterAll
    static void stop() throws Exception {
        gates.close();
        upstream.close();
        Files.deleteIfExists(dir.resolve("routes.json"));
        Files.deleteIfExists(dir);
    }

    private static String id(HttpResponse<String> r) {
        return r.headers().firstValue("X-Request-Id").orElseThrow();
    }

    @Test
    void aJsonBodyIsEmbeddedAsJsonAndTextAsAString() {
        HttpResponse<String> json = client.get("/one/json");
        assertEquals(200, json.statusCode(), json.body());
        assertEquals(Map.of("a", 1L, "b", java.util.Arrays.asList(true, null)), part(TestClient.json(json), "json").get("value"));
        HttpResponse<String> text = client.get("/one/text");
        assertEquals("plain words", part(TestClient.json(text), "text").get("value"));
    }

    @Test
    void theRequestIdTraceDeadlineAndChosenHeadersAndQueryTravel() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(gates.gate("virtual").uri("/one/echo?q=find+me&other=no"))
                .header("X-Request-Id", "client-7").header("Authorization", "Bearer t")
                .header("X-Custom", "yes").header("X-Private", "no")
                .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").build();
        HttpResponse<String> r = client.http().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(upstream.seenBy("client-7").isEmpty(), "a client's own id is not loomgate's: the upstream gets loomgate's");
        MisbehavingUpstream.Seen seen = upstream.seenBy(id(r)).getFirst();
        assertEquals("Bearer t", seen.header("Authorization"));
        assertEquals("yes", seen.header("X-Custom"));
        assertNull(seen.header("X-Private"), "only the declared headers are forwarded");
        String trace = seen.header("traceparent");
        assertTrue(trace.matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01"), trace);
        assertNotEquals("00f067aa0ba902b7", trace.substring(36, 52), "the call is a child span");
        long deadline = Long.parseLong(seen.header("X-Loomgate-Deadline-Ms"));
        assertTrue(deadline > 1_500 && deadline <= 2_000, "the remaining time of a 2 s deadline: " + deadline);
        assertNull(seen.header("Connection"), "no hop-by-hop header of the client's");
    }

    @Test
    void aTraceIsStartedWhenTheClientSentNoneAndSharedByTheRequestsCalls() {
        HttpResponse<String> r = client.get("/one/echo");
        String trace = upstream.seenBy(id(r)).getFirst().header("traceparent");
        assertTrue(trace.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), trace);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            refused     | connection refused
            nowhere     | cannot resolve the upstream's host name
            reset       | the connection failed before a complete answer came
            hang-capped | no complete answer within 300ms
            big         | response body over the 1000-byte limit
            bad-json    | answered invalid JSON (
            redirect    | answered HTTP 302 (redirects are not followed)
            error       | answered HTTP 503
            binary      | answered binary content (image/png); only JSON and text can be embedded in an answer
            """)
    void everyUpstreamFaultIsAFailedPartWithAReasonNeverA500(String upstreamId, String reason) {
        HttpResponse<String> r = client.get("/one/" + upstreamId);
        assertEquals(502, r.statusCode(), r.body());
        Map<String, Object> p = part(TestClient.json(r), upstreamId);
        assertEquals("failed", p.get("state"));
        String error = (String) p.get("error");
        assertTrue(error.startsWith(upstreamId + ": " + reason), error);
        assertTrue(!r.body().contains("Exception"), r.body());
        assertTrue(!r.body().contains("127.0.0.1") && !r.body().contains("no-such-host"), "no upstream address reaches the client: " + r.body());
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"virtual", "platform"})
    void anUpstreamThatHangsAfterItsHeadersMeetsTheDeadlineAndIsAbandoned(String mode) {
        HttpResponse<String> r = in(mode).get("/one/hang?timeout=250ms");
        assertEquals(504, r.statusCode(), r.body());
        assertEquals("timeout", part(TestClient.json(r), "hang").get("state"));
        MisbehavingUpstream.Seen seen = upstream.seenBy(id(r)).getFirst();
        MisbehavingUpstream.awaitClosed(seen);
    }

    /** The gateway's client in {@code mode}: a virtual thread per request, or a platform pool whose subtasks are platform threads. */
    private static TestClient in(String mode) {
        return gates.client(mode);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"virtual", "platform"})
    void theFirstFailureClosesTheSiblingsConnectionAtOnce(String mode) {
        HttpResponse<String> r = in(mode).get("/all");
        assertEquals(502, r.statusCode(), r.body());
        assertEquals(Map.of("slow", "cancelled", "fail-fast", "failed"), states(TestClient.json(r)));
        List<MisbehavingUpstream.Seen> calls = upstream.seenBy(id(r));
        MisbehavingUpstream.Seen slow = calls.stream().filter(s -> s.path.equals("/slow")).findFirst().orElseThrow();
        MisbehavingUpstream.Seen failing = calls.stream().filter(s -> s.path.equals("/status")).findFirst().orElseThrow();
        MisbehavingUpstream.awaitClosed(slow);
        long ms = (slow.closedAt - failing.answeredAt) / 1_000_000;
        System.out.println("/all (" + mode + "): the sibling's connection closed " + ms + " ms after the failure was sent");
        assertTrue(slow.closedAt >= failing.answeredAt, "closed after the failure, not before");
        assertEquals(0, slow.answeredAt, "closed before its 800 ms were up: the slow upstream never got to answer");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"virtual", "platform"})
    void theWinnerClosesTheLosersConnection(String mode) {
        HttpResponse<String> r = in(mode).get("/any");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(Map.of("slow", "cancelled", "quick", "success"), states(TestClient.json(r)));
        List<MisbehavingUpstream.Seen> calls = upstream.seenBy(id(r));
        assertEquals(2, calls.size());
        MisbehavingUpstream.Seen winner = calls.stream().filter(c -> c.answeredAt != 0).findFirst().orElseThrow();
        MisbehavingUpstream.Seen loser = calls.stream().filter(c -> c != winner).findFirst().orElseThrow();
        MisbehavingUpstream.awaitClosed(loser);
        assertEquals(0, loser.answeredAt, "the 800 ms loser never got to answer");
        long ms = (loser.closedAt - winner.answeredAt) / 1_000_000;
        System.out.println("/any (" + mode + "): the loser's connection closed " + ms + " ms after the winner answered");
        assertTrue(loser.closedAt >= winner.answeredAt, "the loser's connection closed after the winner answered, not before");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"virtual", "platform"})
    void theDeadlineClosesWhatIsStillRunning(String mode) {
        long sent = System.nanoTime();
        HttpResponse<String> r = in(mode).get("/deadline");
        assertEquals(504, r.statusCode(), r.body());
        assertEquals(Map.of("slow", "timeout", "json", "success"), states(TestClient.json(r)));
        MisbehavingUpstream.Seen slow = upstream.seenBy(id(r)).stream().filter(s -> s.path.equals("/slow")).findFirst().orElseThrow();
        MisbehavingUpstream.awaitClosed(slow);
        long ms = (slow.closedAt - slow.receivedAt) / 1_000_000;
        System.out.println("/deadline (" + mode + "): the 200 ms deadline closed the connection " + ms + " ms after the request arrived");
        assertTrue(slow.closedAt - sent >= 200_000_000L, "closed no sooner than the 200 ms deadline after the request was sent");
        assertEquals(0, slow.answeredAt, "closed before the 800 ms upstream could answer");
    }

    @Test
    void aFallbackStandsInForAFailedHttpPart() {
        HttpResponse<String> r = client.get("/fallback");
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> p = part(TestClient.json(r), "error");
        assertEquals("fallback", p.get("state"));
        assertEquals(Map.of("cached", true), p.get("value"));
        assertEquals("error: answered HTTP 503", p.get("reason"));
    }
}
