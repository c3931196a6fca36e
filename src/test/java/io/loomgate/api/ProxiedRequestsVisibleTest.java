package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every proxied request is visible: on {@code /debug/requests/{id}} (and so on the dashboard) with
 * the endpoint of each try, the bytes each way and its first and last byte; and in the access log
 * with the endpoint of its last try, the upstream's status, its tries and the protocol.
 */
class ProxiedRequestsVisibleTest {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void aProxiedRequestHasATimelineAndItsLogLineNamesItsUpstream() throws Exception {
        Path log = dir.resolve("access.log");
        try (ApiUpstream live = ApiUpstream.start().answer("/api/orders", "{\"orders\":[1,2,3]}")) {
            String dead = "127.0.0.1:" + MisbehavingUpstream.refusedPort();
            try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"http://" + dead + "/api/\", \""
                            + live.url() + "/api/\"], \"balance\": \"round-robin\", \"retry\": {\"attempts\": 2, \"backoff\": \"1ms\", \"budget\": 1}}",
                    List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"),
                    "--access-log", "json", "--access-log-file", log.toString())) {
                HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/orders"))
                        .method("GET", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                String id = r.headers().firstValue("X-Request-Id").orElseThrow();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/debug/requests/" + id).statusCode() == 200);
                Map<String, Object> t = g.client().getJson("/debug/requests/" + id);
                assertEquals("proxy", t.get("policy"), t.toString());
                assertEquals("/p/*", t.get("route"));
                List<Map<String, Object>> tries = (List<Map<String, Object>>) t.get("attempts");
                assertEquals(List.of(dead, live.url().substring("http://".length())), tries.stream().map(a -> a.get("endpoint")).toList(),
                        "each try with its endpoint: " + t);
                Map<String, Object> transfer = (Map<String, Object>) t.get("transfer");
                assertEquals((long) r.body().length(), ((Number) transfer.get("bytesOut")).longValue(), t.toString());
                assertEquals(0L, ((Number) transfer.get("bytesIn")).longValue());
                assertTrue(((Number) transfer.get("firstByteMs")).doubleValue() <= ((Number) transfer.get("lastByteMs")).doubleValue(),
                        transfer.toString());
                assertEquals(live.url().substring("http://".length()), transfer.get("endpoint"), "the last try's");

                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log)
                        && Files.readAllLines(log).stream().anyMatch(l -> l.contains(id)));
                Map<String, Object> line = Files.readAllLines(log).stream().filter(l -> l.contains(id)).map(JsonParser::parseObject)
                        .findFirst().orElseThrow();
                assertEquals(live.url().substring("http://".length()), line.get("upstream"), line.toString());
                assertEquals(200L, ((Number) line.get("upstreamStatus")).longValue());
                assertEquals(2L, ((Number) line.get("tries")).longValue());
                assertEquals("HTTP/1.1", line.get("protocol"));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aProxiedBodyIsCountedAndAFailedExchangeIsOnTheTimelineToo() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/api/in", "{}")) {
            try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/api/\"},"
                            + "{\"id\": \"gone\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + MisbehavingUpstream.refusedPort() + "/\"}",
                    List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}",
                            "{\"path\": \"/gone/*\", \"policy\": \"proxy\", \"upstreams\": [\"gone\"]}"))) {
                HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/in"))
                        .POST(HttpRequest.BodyPublishers.ofString("0123456789")).build(), HttpResponse.BodyHandlers.ofString());
                String id = r.headers().firstValue("X-Request-Id").orElseThrow();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/debug/requests/" + id).statusCode() == 200);
                Map<String, Object> transfer = (Map<String, Object>) g.client().getJson("/debug/requests/" + id).get("transfer");
                assertEquals(10L, ((Number) transfer.get("bytesIn")).longValue(), transfer.toString());

                HttpResponse<String> gone = g.client().get("/gone/x");
                assertEquals(502, gone.statusCode());
                String goneId = gone.headers().firstValue("X-Request-Id").orElseThrow();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/debug/requests/" + goneId).statusCode() == 200);
                Map<String, Object> t = g.client().getJson("/debug/requests/" + goneId);
                assertEquals("failed", t.get("status"), t.toString());
                assertEquals(502L, ((Number) t.get("httpStatus")).longValue());
            }
        }
    }
}
