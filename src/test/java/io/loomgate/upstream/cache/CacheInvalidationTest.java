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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invalidation on a proxy route (RFC 9111 section 4.4): an unsafe request answered with a 2xx or
 * 3xx drops the answers stored for its target, and for what its answer's {@code Location} and
 * {@code Content-Location} name on the same host; an error, or another host, drops nothing. The
 * upstream counts the GETs it serves: a GET served from the cache never reaches it.
 */
class CacheInvalidationTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
    private volatile int unsafeStatus = 200;
    private volatile Map<String, String> unsafeFields = Map.of();

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/api/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                if (!exchange.getRequestMethod().equals("GET")) {
                    exchange.getRequestBody().readAllBytes();
                    unsafeFields.forEach((n, v) -> exchange.getResponseHeaders().set(n, v));
                    exchange.sendResponseHeaders(unsafeStatus, -1);
                    return;
                }
                int n = gets.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                byte[] b = (path + " #" + n).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Cache-Control", "max-age=3600");
                exchange.sendResponseHeaders(200, b.length);
                exchange.getResponseBody().write(b);
            }
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private FileGate gate() throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
    }

    private static String get(FileGate g, String path) throws Exception {
        return g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static int send(FileGate g, String method, String path) throws Exception {
        return g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).method(method, HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void anUnsafeRequestAnsweredWellDropsItsTargetsStoredAnswer() throws Exception {
        try (FileGate g = gate()) {
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
                String before = get(g, "/p/doc");
                assertEquals(before, get(g, "/p/doc"), "stored: the second GET is the first's answer");
                assertEquals(200, send(g, method, "/p/doc"));
                String after = get(g, "/p/doc");
                assertEquals("/api/doc #" + gets.get("/api/doc").get(), after, method + " dropped it: the next GET went upstream");
                org.junit.jupiter.api.Assertions.assertNotEquals(before, after, method);
            }
        }
    }

    /** RFC 9211: every answer through the cache says how the cache handled it, those it let pass too. */
    @Test
    void everyAnswerThroughTheCacheSaysHowItWent() throws Exception {
        try (FileGate g = gate()) {
            HttpResponse<Void> post = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/doc"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding());
            assertEquals("loomgate/api; fwd=method", post.headers().firstValue("Cache-Status").orElse(""));
            HttpResponse<Void> head = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/fresh"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            assertEquals("loomgate/api; fwd=miss", head.headers().firstValue("Cache-Status").orElse(""), "a HEAD nothing was stored for");
            HttpResponse<String> noCache = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/doc"))
                    .header("Cache-Control", "no-cache").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("loomgate/api; fwd=request", noCache.headers().firstValue("Cache-Status").orElse(""), "the client's no-cache");
        }
    }

    @Test
    void anErrorDropsNothing() throws Exception {
        unsafeStatus = 500;
        try (FileGate g = gate()) {
            String before = get(g, "/p/doc");
            assertEquals(500, send(g, "POST", "/p/doc"));
            assertEquals(before, get(g, "/p/doc"), "a 5xx invalidates nothing");
            assertEquals(1, gets.get("/api/doc").get());
        }
    }

    @Test
    void locationAndContentLocationOnTheSameHostAreDroppedToo() throws Exception {
        int port = upstream.getAddress().getPort();
        try (FileGate g = gate()) {
            String a = get(g, "/p/a");
            String b = get(g, "/p/b?x=1");
            String c = get(g, "/p/c");
            unsafeFields = Map.of("Location", "/api/a", "Content-Location", "http://127.0.0.1:" + port + "/api/b?x=1");
            assertEquals(200, send(g, "POST", "/p/new"));
            org.junit.jupiter.api.Assertions.assertNotEquals(a, get(g, "/p/a"), "its Location's answer was dropped");
            org.junit.jupiter.api.Assertions.assertNotEquals(b, get(g, "/p/b?x=1"), "its Content-Location's, query and all");
            unsafeFields = Map.of("Location", "http://elsewhere.example/api/c");
            assertEquals(200, send(g, "POST", "/p/new"));
            assertEquals(c, get(g, "/p/c"), "another host's URI names nothing here");
        }
    }
}
