package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.net.InetSocketAddress;
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
 * The cache's new behaviours through composed calls, as through proxy routes: an unsafe call
 * answered 2xx invalidates its target (RFC 9111 section 4.4), and a targeted
 * {@code CDN-Cache-Control} decides in place of {@code Cache-Control} (RFC 9213).
 */
class CacheComposedCallTest {

    @TempDir
    Path dir;

    @Test
    void anUnsafeCallInvalidatesAndATargetedFieldDecides() throws Exception {
        Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
        HttpServer up = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        up.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                String path = exchange.getRequestURI().getPath();
                if (!exchange.getRequestMethod().equals("GET")) {
                    exchange.sendResponseHeaders(204, -1);
                    return;
                }
                int n = gets.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                if (path.equals("/cdn")) {
                    exchange.getResponseHeaders().set("Cache-Control", "no-store");
                    exchange.getResponseHeaders().set("CDN-Cache-Control", "max-age=3600");
                } else {
                    exchange.getResponseHeaders().set("Cache-Control", "max-age=3600");
                }
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                byte[] b = ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, b.length);
                exchange.getResponseBody().write(b);
            }
        });
        up.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getAddress().getPort()
                        + "\", \"cache\": {\"maxBytes\": \"1MB\"}}",
                List.of("{\"path\": \"/read\", \"policy\": \"compose\", \"calls\": {\"doc\": {\"upstream\": \"api\", \"path\": \"/doc\"}}}",
                        "{\"path\": \"/cdn\", \"policy\": \"compose\", \"calls\": {\"doc\": {\"upstream\": \"api\", \"path\": \"/cdn\"}}}",
                        "{\"path\": \"/write\", \"policy\": \"compose\", \"methods\": [\"POST\"],"
                                + " \"calls\": {\"w\": {\"upstream\": \"api\", \"method\": \"POST\", \"path\": \"/doc\", \"body\": \"request\"}}}"))) {
            String first = get(g, "/read");
            assertEquals(first, get(g, "/read"), "stored");
            assertEquals(200, g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/write")).POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            get(g, "/read");
            assertEquals(2, gets.get("/doc").get(), "the composed POST invalidated /doc: the next read went upstream");
            get(g, "/cdn");
            get(g, "/cdn");
            assertEquals(1, gets.get("/cdn").get(), "CDN-Cache-Control's max-age stored it over Cache-Control's no-store");
        } finally {
            up.stop(0);
        }
    }

    private static String get(FileGate g, String path) throws Exception {
        HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
