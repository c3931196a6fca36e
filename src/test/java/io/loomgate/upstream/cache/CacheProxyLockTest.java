package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identical proxied misses share one upstream call ({@link CacheLocks}, nginx's proxy_cache_lock):
 * the first streams its answer and stores it, the others wait and are served it; when the first
 * leaves, one of them goes instead; an answer that may not be stored sends each on its own.
 */
class CacheProxyLockTest {

    @TempDir
    Path dir;

    private FileGate gate(ApiUpstream api) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url()
                        + "/\", \"cache\": {\"maxBytes\": \"1MB\", \"defaultTtl\": \"60s\"}}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"30s\"}",
                        "{\"path\": \"/short/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"2s\"}"));
    }

    private static long waiting(FileGate g) {
        String m = g.client().get("/metrics?format=prometheus").body();
        return m.lines().filter(l -> l.startsWith("loomgate_cache_lock_waiting{service=\"api\"}"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    private static List<CompletableFuture<HttpResponse<String>>> send(FileGate g, String path, int n) {
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        return all;
    }

    private static long starts(ApiUpstream api, String path) {
        return api.events().stream().filter(e -> e.equals("start " + path)).count();
    }

    @Test
    void concurrentIdenticalProxiedMissesMakeOneUpstreamCall() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/item", "{\"v\":1}").hold("/item"); FileGate g = gate(api)) {
            var all = send(g, "/p/item", 200);
            api.await("start /item");
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> waiting(g) == 199);
            api.release("/item");
            int collapsed = 0;
            for (var r : all) {
                assertEquals(200, r.get().statusCode(), r.get().body());
                assertEquals("{\"v\":1}", r.get().body());
                collapsed += r.get().headers().firstValue("Cache-Status").orElse("").endsWith("fwd=miss; collapsed") ? 1 : 0;
            }
            assertEquals(199, collapsed, "each waiter was served the answer the first stored");
            assertEquals(1, starts(api, "/item"), "one upstream call for 200");
        }
    }

    @Test
    void anEmptyAnswerIsStoredAndSharedToo() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/empty", "").hold("/empty"); FileGate g = gate(api)) {
            var all = send(g, "/p/empty", 5);
            api.await("start /empty");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> waiting(g) == 4);
            api.release("/empty");
            for (var r : all) {
                assertEquals(200, r.get().statusCode());
                assertEquals("", r.get().body());
            }
            assertEquals(1, starts(api, "/empty"), "a body of no bytes came whole, and was stored: " + api.events());
        }
    }

    @Test
    void whenTheFirstLeavesOneWaiterGoesInItsPlace() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/item", "{\"v\":1}").hold("/item"); FileGate g = gate(api)) {
            var first = send(g, "/short/item", 1).getFirst();
            api.await("start /item");
            var rest = send(g, "/p/item", 3);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> waiting(g) == 3);
            assertEquals(504, first.get().statusCode(), "the first's own deadline passed");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> starts(api, "/item") == 2);
            api.release("/item");
            for (var r : rest) {
                assertEquals(200, r.get().statusCode(), r.get().body());
            }
            assertEquals(2, starts(api, "/item"), "one waiter took the first's place, the other two waited for it: " + api.events());
        }
    }

    @Test
    void anAnswerThatMayNotBeStoredSendsEachWaiterOnItsOwn() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/private", 500, "{\"e\":1}").hold("/private"); FileGate g = gate(api)) {
            var all = send(g, "/p/private", 4);
            api.await("start /private");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> waiting(g) == 3);
            api.release("/private");
            for (var r : all) {
                assertEquals(500, r.get().statusCode());
                assertTrue(r.get().headers().firstValue("Cache-Status").orElse("").endsWith("fwd=miss"), "not collapsed");
            }
            assertEquals(4, starts(api, "/private"), "a 500 is not stored, so the three waiting went on their own");
        }
    }

    @Test
    void anAnswerThatStreamsPastATenthOfMaxBytesLetsTheWaitersGoBeforeItEnds() throws Exception {
        java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer upstream = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 50);
        upstream.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/long", exchange -> {
            calls.incrementAndGet();
            exchange.sendResponseHeaders(200, 0);   // chunked: its length is not known at the head
            exchange.getResponseBody().write(new byte[200 * 1024]);   // past a tenth of maxBytes (1MB)
            exchange.getResponseBody().flush();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        upstream.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:"
                        + upstream.getAddress().getPort() + "/\", \"cache\": {\"maxBytes\": \"1MB\", \"defaultTtl\": \"60s\"}}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"30s\"}"))) {
            var first = send(g, "/p/long", 1).getFirst();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() == 1);
            var rest = send(g, "/p/long", 2);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls.get() == 3);
            assertEquals(0, waiting(g), "they went upstream while the first still streams, not when it ends");
            assertTrue(!first.isDone(), "the first's answer has not ended");
            finish.countDown();
            assertEquals(200, first.get().statusCode());
            for (var r : rest) {
                assertEquals(200, r.get().statusCode());
                assertEquals(200 * 1024, r.get().body().length());
            }
        } finally {
            finish.countDown();
            upstream.stop(0);
        }
    }
}
