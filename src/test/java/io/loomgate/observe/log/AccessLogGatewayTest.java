package io.loomgate.observe.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
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

/** {@code --access-log json --access-log-file}: what a real request through a real gateway writes. */
class AccessLogGatewayTest {

    @TempDir
    Path dir;

    private static List<Map<String, Object>> lines(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(JsonParser::parseObject).toList();
    }

    @Test
    void eachRequestIsOneJsonLineWithItsClientBytesUpstreamTimeTraceAndReason() throws Exception {
        Path log = dir.resolve("access.log");
        try (ApiUpstream api = ApiUpstream.start().answer("/users/7", "{\"name\":\"Ada\"}").answer("/users/9", 503, "{}");
             FileGate g = FileGate.start(dir, "{\"id\": \"users\", \"kind\": \"http\", \"url\": \"" + api.url() + "\"}",
                     List.of("{\"path\": \"/users/{id}\", \"policy\": \"compose\", \"calls\": {\"user\": {\"upstream\": \"users\","
                             + " \"path\": \"/users/{id}\"}}, \"answer\": \"{user}\"}"),
                     "--access-log", "json", "--access-log-file", log.toString(), "--trusted-proxies", "127.0.0.1")) {
            String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
            HttpResponse<String> ok = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/users/7"))
                    .header("traceparent", "00-" + trace + "-00f067aa0ba902b7-01").header("X-Forwarded-For", "203.0.113.9")
                    .header("User-Agent", "access-test/1.0").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(502, g.client().get("/users/9").statusCode());

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log) && lines(log).size() >= 2);
            // each line is written once its answer is, so the second request's may come first: found by path
            Map<String, Object> first = lines(log).stream().filter(l -> "/users/7".equals(l.get("path"))).findFirst().orElseThrow();
            assertEquals("203.0.113.9", first.get("client"), "the client after the trusted proxy");
            assertEquals("/users/{id}", first.get("route"));
            assertEquals("/users/7", first.get("path"));
            assertEquals(200L, ((Number) first.get("status")).longValue());
            assertEquals((long) ok.body().length(), ((Number) first.get("bytesOut")).longValue());
            assertTrue(((Number) first.get("upstreamMs")).doubleValue() <= ((Number) first.get("durationMs")).doubleValue(),
                    first.toString());
            assertEquals(trace, first.get("traceId"), "the trace its upstream was sent");
            assertEquals("access-test/1.0", first.get("userAgent"));
            assertEquals(ok.headers().firstValue("X-Request-Id").orElseThrow(), first.get("requestId"));
            assertTrue(((String) first.get("time")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), first.toString());
            assertTrue(!first.containsKey("reason"), "a success has no reason");

            Map<String, Object> failed = lines(log).stream().filter(l -> "/users/9".equals(l.get("path"))).findFirst().orElseThrow();
            assertEquals(502L, ((Number) failed.get("status")).longValue());
            assertEquals("bad_gateway", failed.get("reason"), "the error code of its answer: " + failed);
        }
    }

    @Test
    void aProxiedBodyIsCountedAsItStreams() throws Exception {
        Path log = dir.resolve("proxy.log");
        String big = "{\"data\":\"" + "x".repeat(100_000) + "\"}";
        try (ApiUpstream api = ApiUpstream.start().answer("/api/big", big);
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/api/\"}",
                     List.of("{\"path\": \"/api/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"),
                     "--access-log", "json", "--access-log-file", log.toString())) {
            HttpResponse<String> r = g.client().get("/api/big");
            assertEquals(200, r.statusCode());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log) && lines(log).size() >= 1);
            Map<String, Object> line = lines(log).getFirst();
            assertEquals((long) big.length(), ((Number) line.get("bytesOut")).longValue(), line.toString());
            assertEquals("/api/*", line.get("route"));
        }
    }

    @Test
    void anAnswerCutOffByItsUpstreamIsLoggedWithThatReason() throws Exception {
        Path log = dir.resolve("cut.log");
        try (io.loomgate.testing.MisbehavingUpstream up = io.loomgate.testing.MisbehavingUpstream.start();
             FileGate g = FileGate.start(dir, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"" + up.url("/") + "\"}",
                     List.of("{\"path\": \"/up/*\", \"policy\": \"proxy\", \"upstreams\": [\"up\"]}"),
                     "--access-log", "json", "--access-log-file", log.toString())) {
            // the upstream sends its head and 7 of 1,000 bytes, then resets: the client must see a broken answer
            org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> g.client().http().send(
                    HttpRequest.newBuilder(g.gate().uri("/up/reset")).build(), HttpResponse.BodyHandlers.ofString()));
            Awaitility.await().until(() -> Files.exists(log) && lines(log).size() >= 1);
            Map<String, Object> line = lines(log).getFirst();
            assertEquals("upstream_cut_off", line.get("reason"), line.toString());
            assertEquals(200L, ((Number) line.get("status")).longValue(), "the head had gone out: " + line);
        }
    }
}
