package io.loomgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loomgate.testing.FileGate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only idempotent bodiless requests are retried: an upstream with {@code "retry"} resets the first
 * connection it gets after reading the head, and answers 200 on every later one. A bodiless GET is
 * retried (one reset, then 200); a bodiless POST or PATCH is not: the upstream
 * sees it once, and the client gets a 502. (Retrying every bodiless request would send a POST twice.)
 */
class ProxyRetryIdempotencyTest {

    @TempDir
    Path dir;

    /** Resets its first connection after the head; answers 200 after that. Counts requests by method. */
    private static final class ResetsFirst implements AutoCloseable {
        final AtomicInteger connections = new AtomicInteger();
        final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        final ServerSocket server = io.loomgate.testing.RawServer.start(s -> serve(s, connections.incrementAndGet() == 1));

        ResetsFirst() throws IOException {
        }

        void reset() {
            connections.set(0);
            seen.clear();
        }

        private void serve(Socket s, boolean reset) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (true) {
                    String head = io.loomgate.testing.RawServer.head(in);
                    if (head == null) {
                        return;
                    }
                    String method = head.split(" ")[0];
                    seen.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
                    if (reset) {
                        s.setSoLinger(true, 0);   // an RST: the request may or may not have been acted on
                        return;
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}"
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
            } catch (IOException e) {
                // gone
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void aBodilessPostIsSentOnceAndABodilessGetIsRetried() throws Exception {
        try (ResetsFirst up = new ResetsFirst();
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.server.getLocalPort()
                     + "/\", \"retry\": {\"attempts\": 3, \"backoff\": \"1ms\", \"budget\": 1}}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            for (String method : List.of("POST", "PATCH")) {
                up.reset();
                HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/orders"))
                        .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), method + ": " + r.body());
                assertEquals(1, up.seen.get(method).get(), method + " reached the upstream once: it is not idempotent");
            }
            up.reset();
            HttpResponse<String> get = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/orders")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, get.statusCode(), "a bodiless GET is retried on another connection: " + get.body());
            assertEquals(2, up.seen.get("GET").get());
        }
    }
}
