package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.io.IOException;
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

/** A proxy route through an upstream's cache: fresh answers served from it, what streams past a tenth of maxBytes never stored. */
class CacheProxyTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private volatile int status = 200;

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/api/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            int size = path.endsWith("/big") ? 200 * 1024 : 1000;
            byte[] body = "x".repeat(size).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Cache-Control", "max-age=60");
            exchange.getResponseHeaders().set("ETag", "\"v1\"");
            if (path.endsWith("/stale")) {
                exchange.getResponseHeaders().set("Age", "75");   // stale on arrival, by 15 s
            }
            if (path.endsWith("/aged")) {
                exchange.getResponseHeaders().set("Age", "30");   // 30 s old when it left the upstream's own cache
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(status, path.endsWith("/chunked") ? 0 : body.length);   // 0: chunked
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private FileGate gate() throws Exception {
        return gate("{\"maxBytes\": \"1MB\"}");
    }

    private FileGate gate(String cache) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                + "/api/\", \"cache\": " + cache + "}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
    }

    private static String cacheStatus(HttpResponse<String> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    private static HttpResponse<String> get(FileGate g, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri(path));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return g.client().http().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aFreshProxiedAnswerIsServedFromTheCache() throws Exception {
        try (FileGate g = gate()) {
            HttpResponse<String> first = get(g, "/p/item");
            assertEquals(200, first.statusCode());
            assertEquals("loomgate/api; fwd=miss", first.headers().firstValue("Cache-Status").orElse(""));
            HttpResponse<String> second = get(g, "/p/item");
            assertEquals(200, second.statusCode());
            assertEquals(first.body(), second.body());
            assertTrue(second.headers().firstValue("Cache-Status").orElse("").matches("loomgate/api; hit; ttl=(5[0-9]|60)"),
                    second.headers().map().toString());
            assertTrue(second.headers().firstValue("Age").isPresent());
            assertEquals("max-age=60", second.headers().firstValue("Cache-Control").orElse(""));
            assertEquals(1, calls.get("/api/item").get());
            HttpResponse<String> bypassed = get(g, "/p/item", "Cache-Control", "no-cache");
            assertEquals(2, calls.get("/api/item").get(), "a client's no-cache goes to the upstream");
            assertEquals("loomgate/api; fwd=request", cacheStatus(bypassed), "and says so: every answer through a cache has Cache-Status");
        }
    }

    @Test
    void aProxiedHitsAgeCountsTheUpstreamsAgeAndTheTimeItWasHeld() throws Exception {
        try (FileGate g = gate()) {
            long start = System.nanoTime();
            get(g, "/p/aged");
            HttpResponse<String> hit = get(g, "/p/aged");
            long elapsed = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertTrue(cacheStatus(hit).startsWith("loomgate/api; hit"), cacheStatus(hit));
            long age = Long.parseLong(hit.headers().firstValue("Age").orElseThrow());
            assertTrue(age >= 30 && age <= 31 + elapsed, "Age counts the upstream's 30 s and what the cache held it: " + age);
            long ttl = Long.parseLong(cacheStatus(hit).replaceAll(".*ttl=(-?\\d+).*", "$1"));
            assertTrue(ttl <= 30 && ttl >= 29 - elapsed, "60 s of life less its age: " + cacheStatus(hit));
            assertEquals(1, calls.get("/api/aged").get());
        }
    }

    @Test
    void aChunkedAnswerIsStoredAndOnePastATenthOfMaxBytesStreamsUnstored() throws Exception {
        try (FileGate g = gate()) {
            assertEquals(1000, get(g, "/p/chunked").body().length());
            assertEquals(1000, get(g, "/p/chunked").body().length());
            assertEquals(1, calls.get("/api/chunked").get(), "stored while it streamed");
            assertEquals(200 * 1024, get(g, "/p/big").body().length());
            assertEquals(200 * 1024, get(g, "/p/big").body().length());
            assertEquals(2, calls.get("/api/big").get(), "over a tenth of maxBytes: streamed, never stored");
        }
    }

    @Test
    void withinStaleWhileRevalidateAProxiedRequestGetsTheStaleAnswerAndOneRefreshRuns() throws Exception {
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"staleWhileRevalidate\": \"60s\"}")) {
            assertEquals("loomgate/api; fwd=miss", cacheStatus(get(g, "/p/stale")));
            HttpResponse<String> r = get(g, "/p/stale");
            assertEquals(200, r.statusCode());
            assertEquals(1000, r.body().length());
            assertEquals("loomgate/api; hit; fwd=stale; detail=stale-while-revalidate", cacheStatus(r));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> calls.get("/api/stale").get() == 2);
        }
    }

    @Test
    void whenTheUpstreamFailsAProxiedRequestGetsAStaleAnswerWithinStaleIfError() throws Exception {
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"staleIfError\": \"60s\"}")) {
            assertEquals(200, get(g, "/p/stale").statusCode());
            status = 503;
            HttpResponse<String> r = get(g, "/p/stale");
            assertEquals(200, r.statusCode());
            assertEquals(1000, r.body().length());
            assertEquals("loomgate/api; fwd=stale; fwd-status=503; detail=stale-if-error", cacheStatus(r));
            upstream.stop(0);
            HttpResponse<String> gone = get(g, "/p/stale");
            assertEquals(200, gone.statusCode(), gone.body());
            assertEquals("loomgate/api; fwd=stale; detail=stale-if-error", cacheStatus(gone));
        }
    }

    @Test
    void aHeadGetsAStoredAnswersHeadAndAMatchingIfNoneMatchA304() throws Exception {
        try (FileGate g = gate()) {
            assertEquals(200, get(g, "/p/item").statusCode());
            HttpResponse<String> head = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/item"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode());
            assertEquals("", head.body());
            assertEquals("1000", head.headers().firstValue("Content-Length").orElse(""));
            assertTrue(cacheStatus(head).startsWith("loomgate/api; hit"), cacheStatus(head));
            HttpResponse<String> unchanged = get(g, "/p/item", "If-None-Match", "\"v0\", W/\"v1\"");
            assertEquals(304, unchanged.statusCode());
            assertEquals("", unchanged.body());
            assertEquals("\"v1\"", unchanged.headers().firstValue("ETag").orElse(""));
            assertEquals(200, get(g, "/p/item", "If-None-Match", "\"v0\"").statusCode(), "another tag: the answer");
            assertEquals(1, calls.get("/api/item").get(), "all from the cache");
        }
    }
}
