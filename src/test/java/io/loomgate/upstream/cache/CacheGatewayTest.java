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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream's cache through real sockets: an upstream written here counts its calls, sets the
 * caching fields each test asks for, and answers {@code If-None-Match} with a 304 when its ETag
 * matches.
 */
class CacheGatewayTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final AtomicInteger calls = new AtomicInteger();
    private final ConcurrentLinkedQueue<Map<String, String>> asked = new ConcurrentLinkedQueue<>();
    private volatile Map<String, String> fields = Map.of();
    private volatile int status = 200;
    private volatile String body = "{\"v\":1}";
    private volatile CountDownLatch hold;
    private final Map<String, Integer> perLanguage = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        upstream.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/item", exchange -> {
            calls.incrementAndGet();
            Map<String, String> request = new ConcurrentHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> request.put(k.toLowerCase(java.util.Locale.ROOT), v.getFirst()));
            asked.add(request);
            String lang = request.getOrDefault("accept-language", "");
            perLanguage.merge(lang, 1, Integer::sum);
            CountDownLatch h = hold;
            if (h != null) {
                try {
                    h.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            fields.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            String etag = fields.get("ETag");
            if (etag != null && etag.equals(request.get("if-none-match"))) {
                exchange.sendResponseHeaders(304, -1);
                exchange.close();
                return;
            }
            byte[] b = (lang.isEmpty() ? body : "{\"lang\":\"" + lang + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, b.length);
            exchange.getResponseBody().write(b);
            exchange.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + upstream.getAddress().getPort() + "/item";
    }

    private FileGate gate(String upstreamMore) throws Exception {
        return FileGate.start(dir, "{\"id\": \"item\", \"kind\": \"http\", \"url\": \"" + url() + "\", \"cache\": {\"maxBytes\": \"1MB\"}"
                + upstreamMore + "}", List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"item\"]}"));
    }

    private FileGate gate(String cache, String upstreamMore) throws Exception {
        return FileGate.start(dir, "{\"id\": \"item\", \"kind\": \"http\", \"url\": \"" + url() + "\", \"cache\": " + cache
                + upstreamMore + "}", List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"item\"]}"));
    }

    private static HttpResponse<String> get(FileGate g, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri("/x"));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return g.client().http().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String cacheStatus(HttpResponse<String> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    @Test
    void aFreshAnswerIsServedFromTheCacheUntilItsMaxAgeRunsOut() throws Exception {
        fields = Map.of("Cache-Control", "max-age=60");
        try (FileGate g = gate("")) {
            HttpResponse<String> first = get(g);
            assertEquals(200, first.statusCode(), first.body());
            assertEquals("loomgate/item; fwd=miss; stored", cacheStatus(first));
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = get(g);
                assertEquals(200, r.statusCode());
                assertTrue(r.body().contains("\"v\":1"), r.body());
                assertTrue(cacheStatus(r).matches("loomgate/item; hit; ttl=(5[0-9]|60)"), cacheStatus(r));
            }
            assertEquals(1, calls.get());
            var timeline = g.client().getJson("/debug/requests/" + first.headers().firstValue("X-Request-Id").orElseThrow());
            assertEquals(List.of("loomgate/item; fwd=miss; stored"), timeline.get("cache"), "the timeline says how the call was served");
        }
    }

    @Test
    void noStoreAndPrivateAnswersAreNeverStored() throws Exception {
        for (String cc : List.of("no-store, max-age=60", "private, max-age=60")) {
            fields = Map.of("Cache-Control", cc);
            calls.set(0);
            try (FileGate g = gate("")) {
                assertEquals("loomgate/item; fwd=miss", cacheStatus(get(g)));
                get(g);
                assertEquals(2, calls.get(), cc);
            }
        }
    }

    @Test
    void eachVariantOfAVaryingAnswerIsKeptApart() throws Exception {
        fields = Map.of("Cache-Control", "max-age=60", "Vary", "Accept-Language");
        try (FileGate g = gate(", \"forwardHeaders\": [\"Accept-Language\"]")) {
            assertTrue(get(g, "Accept-Language", "en").body().contains("en"));
            assertTrue(get(g, "Accept-Language", "fr").body().contains("fr"));
            HttpResponse<String> again = get(g, "Accept-Language", "en");
            assertTrue(again.body().contains("en"), again.body());
            assertTrue(cacheStatus(again).startsWith("loomgate/item; hit"), cacheStatus(again));
            assertEquals(Map.of("en", 1, "fr", 1), perLanguage);
        }
    }

    @Test
    void aStaleAnswerIsRevalidatedAndA304RefreshesIt() throws Exception {
        fields = Map.of("Cache-Control", "max-age=0", "ETag", "\"v1\"");
        try (FileGate g = gate("")) {
            assertEquals("loomgate/item; fwd=miss; stored", cacheStatus(get(g)));
            HttpResponse<String> r = get(g);
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("\"v\":1"), "the stored body: " + r.body());
            assertEquals("loomgate/item; fwd=stale; fwd-status=304; stored", cacheStatus(r));
            assertEquals("\"v1\"", asked.stream().skip(1).findFirst().orElseThrow().get("if-none-match"));
            assertEquals(2, calls.get());
        }
    }

    @Test
    void withinStaleWhileRevalidateTheStaleAnswerIsServedAndOneRefreshRuns() throws Exception {
        fields = Map.of("Cache-Control", "max-age=10", "Age", "15");   // stale on arrival, by 5 s
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"staleWhileRevalidate\": \"60s\"}", "")) {
            get(g);
            hold = new CountDownLatch(1);   // the refresh waits at the upstream
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = get(g);
                assertEquals(200, r.statusCode());
                assertEquals("loomgate/item; hit; fwd=stale; detail=stale-while-revalidate", cacheStatus(r));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() == 2);
            hold.countDown();
            Thread.sleep(200);
            assertEquals(2, calls.get(), "five stale answers, one refresh");
        }
    }

    @Test
    void whenTheUpstreamFailsAStaleAnswerWithinStaleIfErrorIsServedAndMarked() throws Exception {
        fields = Map.of("Cache-Control", "max-age=10", "Age", "15");
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"staleIfError\": \"60s\"}", "")) {
            assertEquals(200, get(g).statusCode());
            status = 503;
            HttpResponse<String> r = get(g);
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"v\":1"));
            assertEquals("loomgate/item; fwd=stale; fwd-status=503; detail=stale-if-error", cacheStatus(r));
            upstream.stop(0);   // and when it is gone altogether
            HttpResponse<String> gone = get(g);
            assertEquals(200, gone.statusCode(), gone.body());
            assertEquals("loomgate/item; fwd=stale; detail=stale-if-error", cacheStatus(gone));
        }
    }

    @Test
    void anAnswerToARequestWithAuthorizationIsNotSharedUnlessItSaysPublic() throws Exception {
        fields = Map.of("Cache-Control", "max-age=60");
        try (FileGate g = gate(", \"forwardHeaders\": [\"Authorization\"]")) {
            get(g, "Authorization", "Bearer alice");
            get(g, "Authorization", "Bearer bob");
            get(g, "Authorization", "Bearer alice");
            assertEquals(3, calls.get(), "nothing stored for anyone");
        }
        calls.set(0);
        fields = Map.of("Cache-Control", "public, max-age=60");
        try (FileGate g = gate(", \"forwardHeaders\": [\"Authorization\"]")) {
            get(g, "Authorization", "Bearer alice");
            get(g, "Authorization", "Bearer bob");
            assertEquals(1, calls.get(), "public: shared");
        }
    }

    @Test
    void theAdminPortPurgesACacheAndShowsItsSize() throws Exception {
        fields = Map.of("Cache-Control", "max-age=60");
        try (FileGate g = FileGate.start(dir, "{\"id\": \"item\", \"kind\": \"http\", \"url\": \"" + url() + "\", \"cache\": {\"maxBytes\": \"1MB\"}}",
                List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"item\"]}"), "--admin-port", "0");
             io.loomgate.testing.TestClient admin = new io.loomgate.testing.TestClient(g.gate().adminUri(""))) {
            get(g);
            get(g);
            assertEquals(1, calls.get());
            String upstreams = admin.get("/admin/upstreams").body();
            assertTrue(upstreams.matches("(?s).*\"cache\":\\{\"entries\":1,\"bytes\":\\d+,\"maxBytes\":1048576}.*"), upstreams);
            String metrics = admin.get("/metrics?format=prometheus").body();   // the operator pages move to the admin port
            assertTrue(metrics.contains("loomgate_cache_hits_total{service=\"item\"} 1"), metrics);
            assertTrue(metrics.contains("loomgate_cache_misses_total{service=\"item\"} 1"), metrics);

            HttpResponse<String> other = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/item?key=/elsewhere"))
                    .DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("{\"purged\":0}", other.body());
            HttpResponse<String> one = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/item?key=/item"))
                    .DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, one.statusCode(), one.body());
            assertEquals("{\"purged\":1}", one.body());
            get(g);
            assertEquals(2, calls.get(), "purged: asked again");
            HttpResponse<String> all = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/item")).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("{\"purged\":1}", all.body());
            HttpResponse<String> none = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/nope")).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, none.statusCode());
            assertTrue(!none.body().contains("nope"), "a hostile id is never echoed: " + none.body());
            int onPublicPort = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/admin/cache/item")).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
            assertTrue(onPublicPort == 404 || onPublicPort == 405, "the admin API is on the admin port only: " + onPublicPort);
        }
    }

    @Test
    void keyedByCallerEachCallerHasAnswersOfItsOwn() throws Exception {
        fields = Map.of("Cache-Control", "max-age=60");   // personal (no public): shared with no one
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"keyBy\": \"caller\"}", ", \"forwardHeaders\": [\"Authorization\"]")) {
            get(g, "Authorization", "Bearer alice");
            HttpResponse<String> again = get(g, "Authorization", "Bearer alice");
            assertTrue(cacheStatus(again).startsWith("loomgate/item; hit"), cacheStatus(again));
            get(g, "Authorization", "Bearer bob");
            assertEquals(2, calls.get(), "alice's answer is kept for alice, and bob gets his own");
            assertTrue(cacheStatus(get(g, "Authorization", "Bearer bob")).startsWith("loomgate/item; hit"));
            assertEquals(2, calls.get());
        }
    }
}
