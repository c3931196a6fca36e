package io.loomgate.observe.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --otlp-endpoint} against a collector written here (it keeps every span it is sent, as
 * OTLP/HTTP JSON): the span tree of a composed request, continued from the client's
 * {@code traceparent}, its calls' and tries' spans beneath it, what the upstream is sent, and
 * sampling.
 */
class TracingTest {

    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";

    @TempDir
    Path dir;
    private HttpServer collector;
    private final List<Map<String, Object>> spans = new CopyOnWriteArrayList<>();
    private ApiUpstream api;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void start() throws Exception {
        collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            Map<String, Object> body = JsonParser.parseObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            for (Object rs : (List<Object>) body.get("resourceSpans")) {
                for (Object ss : (List<Object>) ((Map<String, Object>) rs).get("scopeSpans")) {
                    ((List<Object>) ((Map<String, Object>) ss).get("spans")).forEach(s -> spans.add((Map<String, Object>) s));
                }
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        api = ApiUpstream.start().answer("/users/7", "{\"name\":\"Ada\",\"teamId\":3}").answer("/teams/3", "{\"name\":\"Engines\"}");
    }

    @AfterEach
    void stop() throws Exception {
        collector.stop(0);
        api.close();
    }

    private FileGate gate(String... flags) throws Exception {
        List<String> all = new ArrayList<>(List.of("--otlp-endpoint", "http://127.0.0.1:" + collector.getAddress().getPort()));
        all.addAll(List.of(flags));
        return FileGate.start(dir, "{\"id\": \"users\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"}",
                List.of("""
                        {"path": "/users/{id}/card", "policy": "compose",
                         "calls": {"user": {"upstream": "users", "path": "/users/{id}"},
                                   "team": {"upstream": "users", "path": "/teams/{user.teamId}"}}}"""),
                all.toArray(String[]::new));
    }

    private static String attribute(Map<String, Object> span, String key) {
        for (Object a : (List<?>) span.get("attributes")) {
            Map<?, ?> kv = (Map<?, ?>) a;
            if (kv.get("key").equals(key)) {
                Map<?, ?> v = (Map<?, ?>) kv.get("value");
                return String.valueOf(v.values().iterator().next());
            }
        }
        return null;
    }

    @Test
    void aComposedRequestIsOneTreeContinuedFromTheClientsTrace() throws Exception {
        try (FileGate g = gate("--trace-sample", "0")) {
            HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/users/7/card"))
                    .header("traceparent", "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> spans.size() >= 5);

            assertTrue(spans.stream().allMatch(s -> s.get("traceId").equals(CLIENT_TRACE)), "one trace, the client's: " + spans);
            Map<String, Object> server = spans.stream().filter(s -> ((Number) s.get("kind")).intValue() == 2).findFirst().orElseThrow();
            assertEquals(CLIENT_SPAN, server.get("parentSpanId"), "the server span hangs under the client's span");
            assertEquals("GET /users/{id}/card", server.get("name"));
            assertEquals("/users/{id}/card", attribute(server, "http.route"));
            assertEquals("GET", attribute(server, "http.request.method"));
            assertEquals("200", attribute(server, "http.response.status_code"));
            assertEquals("127.0.0.1", attribute(server, "client.address"));

            List<Map<String, Object>> calls = spans.stream().filter(s -> String.valueOf(s.get("name")).startsWith("call ")).toList();
            assertEquals(2, calls.size(), spans.toString());
            assertTrue(calls.stream().allMatch(c -> c.get("parentSpanId").equals(server.get("spanId"))), "calls under the server span");
            List<Map<String, Object>> tries = spans.stream().filter(s -> ((Number) s.get("kind")).intValue() == 3).toList();
            assertEquals(2, tries.size());
            assertEquals(calls.stream().map(c -> c.get("spanId")).collect(Collectors.toSet()),
                    tries.stream().map(t -> t.get("parentSpanId")).collect(Collectors.toSet()), "each try under its call");
            assertTrue(tries.stream().allMatch(t -> "200".equals(attribute(t, "http.response.status_code"))
                    && "127.0.0.1".equals(attribute(t, "server.address"))), tries.toString());

            List<String> sent = api.requests().stream().map(q -> q.headers().get("traceparent")).toList();
            assertEquals(tries.stream().map(t -> "00-" + CLIENT_TRACE + "-" + t.get("spanId") + "-01").collect(Collectors.toSet()),
                    Set.copyOf(sent), "the upstream is sent each try's span as its parent");
            Map<String, Object> user = calls.stream().filter(c -> c.get("name").equals("call users")).findFirst().orElseThrow();
            long userEnd = Long.parseLong((String) tries.stream().filter(t -> ((String) attribute(t, "url.full")).endsWith("/users/7"))
                    .findFirst().orElseThrow().get("endTimeUnixNano"));
            long teamStart = Long.parseLong((String) tries.stream().filter(t -> ((String) attribute(t, "url.full")).endsWith("/teams/3"))
                    .findFirst().orElseThrow().get("startTimeUnixNano"));
            assertTrue(userEnd <= teamStart, "the timeline shows the critical path: team after user");
            assertTrue(user.containsKey("status"));
        }
    }

    @Test
    void aHedgesLoserIsMarkedCancelledAndARetriedCallShowsEachTry() throws Exception {
        api.answer("/slow", "{\"ok\":1}").failFirst("/slow", 1, ApiUpstream.HANG)
                .answer("/flaky", "{\"ok\":2}").failFirst("/flaky", 1, 503);
        try (FileGate g = FileGate.start(dir, """
                {"id": "slow", "kind": "http", "url": "%s/slow", "retry": {"attempts": 1, "budget": 1}},
                {"id": "flaky", "kind": "http", "url": "%s/flaky", "retry": {"attempts": 2, "backoff": "1ms", "budget": 1}}"""
                .formatted(api.url(), api.url()),
                List.of("{\"path\": \"/hedged\", \"policy\": \"hedge\", \"upstreams\": [\"slow\"], \"hedge\": {\"after\": \"20ms\", \"budget\": 1}}",
                        "{\"path\": \"/retried\", \"policy\": \"single\", \"upstreams\": [\"flaky\"]}"),
                "--otlp-endpoint", "http://127.0.0.1:" + collector.getAddress().getPort())) {
            assertEquals(200, g.client().get("/hedged").statusCode());
            assertEquals(200, g.client().get("/retried").statusCode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> spans.stream()
                    .filter(s -> "true".equals(attribute(s, "loomgate.cancelled"))).count() == 1
                    && spans.stream().filter(s -> "call flaky".equals(s.get("name"))).count() == 1);

            List<Map<String, Object>> hedges = spans.stream().filter(s -> "call slow".equals(s.get("name"))).toList();
            assertEquals(Set.of("success", "cancelled"), hedges.stream().map(s -> attribute(s, "loomgate.outcome"))
                    .collect(Collectors.toSet()), "both copies show, the loser cancelled: " + hedges);
            Map<String, Object> loser = hedges.stream().filter(s -> "cancelled".equals(attribute(s, "loomgate.outcome"))).findFirst()
                    .orElseThrow();
            assertEquals(2, ((Number) ((Map<?, ?>) loser.get("status")).get("code")).intValue());
            Map<String, Object> cancelledTry = spans.stream().filter(s -> "true".equals(attribute(s, "loomgate.cancelled")))
                    .findFirst().orElseThrow();
            assertEquals(loser.get("spanId"), cancelledTry.get("parentSpanId"), "the cancelled try is the loser's");

            Map<String, Object> retried = spans.stream().filter(s -> "call flaky".equals(s.get("name"))).findFirst().orElseThrow();
            List<String> tries = spans.stream().filter(s -> retried.get("spanId").equals(s.get("parentSpanId")))
                    .map(s -> attribute(s, "http.response.status_code")).sorted().toList();
            assertEquals(List.of("200", "503"), tries, "one call, its two tries");
        }
    }

    @Test
    void aFailedCallIsAnErrorAndNewTracesFollowTheRatio() throws Exception {
        api.answer("/teams/3", 503, "{}");
        try (FileGate g = gate("--trace-sample", "0")) {
            assertEquals(502, g.client().get("/users/7/card").statusCode());
            HttpResponse<String> sampled = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/users/7/card"))
                    .header("traceparent", "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(502, sampled.statusCode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> spans.size() >= 5);
            Thread.sleep(1500);   // a batch of the unsampled request would have come by now
            assertTrue(spans.stream().allMatch(s -> s.get("traceId").equals(CLIENT_TRACE)),
                    "a new trace at --trace-sample 0 records nothing: " + spans);
            Map<String, Object> server = spans.stream().filter(s -> ((Number) s.get("kind")).intValue() == 2).findFirst().orElseThrow();
            assertEquals("502", attribute(server, "error.type"));
            assertEquals(2, ((Number) ((Map<?, ?>) server.get("status")).get("code")).intValue());
            Map<String, Object> team = spans.stream().filter(s -> "call users".equals(s.get("name"))
                    && "failed".equals(attribute(s, "loomgate.outcome"))).findFirst().orElseThrow();
            assertEquals(2, ((Number) ((Map<?, ?>) team.get("status")).get("code")).intValue());
        }
    }
}
