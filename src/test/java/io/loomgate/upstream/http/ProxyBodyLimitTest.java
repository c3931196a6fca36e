package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.RawHttp;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxy route's {@code maxBodyBytes} (1 MiB by default, nginx's {@code client_max_body_size}): a
 * declared length over it is a 413 before the upstream is called; a chunked body that passes it is
 * cut with a 413; the connection closes after either, so the rest is never read as a request. And a
 * proxied request's deadline is a proxy's (15 s), not the 2 s aggregation default.
 */
class ProxyBodyLimitTest {

    @TempDir
    Path dir;

    private FileGate gate(ApiUpstream api) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                List.of("{\"path\": \"/small/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"maxBodyBytes\": \"1KB\"}",
                        "{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
    }

    @Test
    void aDeclaredLengthOverTheLimitIs413AndTheUpstreamIsNeverCalled() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{}"); FileGate g = gate(api)) {
            RawHttp.Answer a = RawHttp.send(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()),
                    "POST /small/up HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n" + "x".repeat(2000)
                            + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(413, a.status(), a.text());
            assertEquals(1, RawHttp.wholeAnswers(a.text()), "the connection closed after the refusal");
            assertEquals(List.of(), api.requests(), "the upstream was never called");
            assertEquals(200, g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/small/up"))
                    .POST(HttpRequest.BodyPublishers.ofString("x".repeat(1024))).build(), HttpResponse.BodyHandlers.ofString()).statusCode(),
                    "1 KB exactly passes");
        }
    }

    @Test
    void aChunkedBodyThatPassesTheLimitIsCutWith413() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{}"); FileGate g = gate(api)) {
            StringBuilder chunks = new StringBuilder();
            for (int i = 0; i < 30; i++) {
                chunks.append("64\r\n").append("y".repeat(100)).append("\r\n");
            }
            RawHttp.Answer a = RawHttp.send(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()),
                    "POST /small/up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n");
            assertEquals(413, a.status(), a.text());
            assertTrue(a.text().contains("body_too_large"), a.text());
        }
    }

    @Test
    void aStreamedChunkedBodyThatPassesTheLimitIsCutWith413AndTheUpstreamSeesItAbandoned() throws Exception {
        java.util.concurrent.atomic.AtomicInteger whole = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger cut = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer reader = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        reader.createContext("/", x -> {   // reads the whole body before it answers, as most upstreams do
            try (x) {
                x.getRequestBody().readAllBytes();
                whole.incrementAndGet();
                x.sendResponseHeaders(200, -1);
            } catch (java.io.IOException e) {
                cut.incrementAndGet();
            }
        });
        reader.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:"
                        + reader.getAddress().getPort() + "/\"}",
                     List.of("{\"path\": \"/mid/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"maxBodyBytes\": \"200KB\"}"))) {
            byte[] body = new byte[300 * 1024];   // past the 64 KiB read before connecting: it streams, chunked
            HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/mid/up"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(413, r.statusCode(), r.body());
            assertTrue(r.body().contains("body_too_large"), r.body());
            org.awaitility.Awaitility.await().until(() -> cut.get() == 1);
            assertEquals(0, whole.get(), "the upstream never got a whole request, and saw it cut");
        } finally {
            reader.stop(0);
        }
    }

    /**
     * The client is still sending when the refusal goes out. On loomgate's server the refusal goes at
     * once and the connection lingers, reading; the JDK's server has no lingering close, so the
     * gateway reads the refused body first there: without that, the JDK's HttpClient lost the 413 to
     * the reset 3 times in 20 (its write failed first: "header parser received no bytes").
     */
    @Test
    void aClientStillSendingARefusedBodyGetsTheRefusalEveryTime() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{}"); FileGate g = gate(api)) {
            byte[] body = new byte[6 << 20];
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/up"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(413, r.statusCode(), "round " + i + ": " + r.body());
            }
            assertEquals(List.of(), api.requests(), "the upstream was never called");
        }
    }

    @Test
    void theDefaultIsOneMebibyteAndAProxiedAnswerMayTakeLongerThanTwoSeconds() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{}").answer("/slow", "{\"slow\":true}")
                .delay("/slow", java.time.Duration.ofMillis(2500)); FileGate g = gate(api)) {
            HttpResponse<String> big = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/up"))
                    .POST(HttpRequest.BodyPublishers.ofString("z".repeat((1 << 20) + 1))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(413, big.statusCode());
            HttpResponse<String> slow = g.client().get("/p/slow");
            assertEquals(200, slow.statusCode(), "the proxy's 15 s, not --timeout's 2 s: " + slow.body());
        }
    }
}
