package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No client is handed another's cookie: an upstream written here answers {@code max-age=60} with a
 * fresh {@code Set-Cookie: sid=N} on every call (the careless but common upstream), and each test
 * checks what a second client gets through every path that stores: a proxy route, a composed call,
 * coalesced misses and a stale-while-revalidate refresh.
 */
class CacheCookieTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile CountDownLatch hold;
    private final CountDownLatch held = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/c/", exchange -> {
            int n = calls.incrementAndGet();
            String path = exchange.getRequestURI().getPath();
            CountDownLatch h = hold;
            if (h != null) {
                held.countDown();
                try {
                    h.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String cc = switch (path) {
                case "/c/private-field" -> "max-age=60, private=\"Set-Cookie\"";
                case "/c/no-cache-field" -> "max-age=60, no-cache=\"Set-Cookie, X-User\"";
                case "/c/stale" -> "max-age=60, stale-while-revalidate=600";
                default -> "max-age=60";
            };
            exchange.getResponseHeaders().set("Cache-Control", cc);
            if (path.equals("/c/stale")) {
                exchange.getResponseHeaders().set("Age", "75");   // stale on arrival, within stale-while-revalidate
            }
            exchange.getResponseHeaders().add("Set-Cookie", "sid=" + n + "; Path=/; HttpOnly");
            exchange.getResponseHeaders().set("X-User", "user-" + n);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            byte[] body = ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private FileGate gate(String cacheMore) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/\", \"cache\": {\"maxBytes\": \"1MB\"" + cacheMore + "}}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"30s\"}",
                        "{\"path\": \"/composed\", \"policy\": \"compose\", \"timeout\": \"30s\","
                                + " \"calls\": {\"c\": {\"upstream\": \"api\", \"path\": \"/c/plain\"}}, \"answer\": {\"n\": \"{c.n}\"}}"));
    }

    private static HttpResponse<String> get(FileGate g, String path) throws Exception {
        return g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String cookie(HttpResponse<String> r) {
        return r.headers().firstValue("Set-Cookie").orElse("");
    }

    private static String cacheStatus(HttpResponse<String> r) {
        return r.headers().firstValue("Cache-Status").orElse("");
    }

    @Test
    void aProxiedAnswerThatSetsACookieIsNotStoredByDefault() throws Exception {
        try (FileGate g = gate("")) {
            HttpResponse<String> first = get(g, "/p/c/plain");
            assertTrue(cookie(first).startsWith("sid=1;"), first.headers().map().toString());
            HttpResponse<String> second = get(g, "/p/c/plain");
            assertTrue(cookie(second).startsWith("sid=2;"), "the second client gets its own cookie: " + second.headers().map());
            assertFalse(cacheStatus(second).contains("hit"), cacheStatus(second));
            assertEquals(2, calls.get(), "nothing was stored");
        }
    }

    @Test
    void withStoreWithSetCookieStripTheAnswerIsStoredWithoutItsCookie() throws Exception {
        try (FileGate g = gate(", \"storeWithSetCookie\": \"strip\"")) {
            HttpResponse<String> first = get(g, "/p/c/plain");
            assertTrue(cookie(first).startsWith("sid=1;"), "the client that asked gets its own cookie");
            HttpResponse<String> second = get(g, "/p/c/plain");
            assertTrue(cacheStatus(second).contains("hit"), cacheStatus(second));
            assertEquals("{\"n\":1}", second.body());
            assertFalse(second.headers().firstValue("Set-Cookie").isPresent(), second.headers().map().toString());
            assertEquals(1, calls.get());
        }
    }

    @Test
    void privateAndNoCacheNamingFieldsStoreTheRestOfTheAnswer() throws Exception {
        try (FileGate g = gate("")) {
            get(g, "/p/c/private-field");
            HttpResponse<String> hit = get(g, "/p/c/private-field");
            assertTrue(cacheStatus(hit).contains("hit"), "private=\"Set-Cookie\" lets the rest be stored: " + cacheStatus(hit));
            assertFalse(hit.headers().firstValue("Set-Cookie").isPresent());
            assertEquals("user-1", hit.headers().firstValue("X-User").orElse(""), "a field it did not name is kept");

            get(g, "/p/c/no-cache-field");
            HttpResponse<String> other = get(g, "/p/c/no-cache-field");
            assertTrue(cacheStatus(other).contains("hit"), cacheStatus(other));
            assertFalse(other.headers().firstValue("Set-Cookie").isPresent());
            assertFalse(other.headers().firstValue("X-User").isPresent(), "no-cache=\"Set-Cookie, X-User\" names both");
            assertEquals(2, calls.get());
        }
    }

    @Test
    void coalescedProxiedMissesNeverGetTheFirstClientsCookie() throws Exception {
        for (String cacheMore : List.of("", ", \"storeWithSetCookie\": \"strip\"")) {
            calls.set(0);
            hold = new CountDownLatch(1);
            try (FileGate g = gate(cacheMore)) {
                CompletableFuture<HttpResponse<String>> first = g.client().http().sendAsync(
                        HttpRequest.newBuilder(g.gate().uri("/p/c/plain")).build(), HttpResponse.BodyHandlers.ofString());
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> calls.get() == 1);
                List<CompletableFuture<HttpResponse<String>>> others = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    others.add(g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/p/c/plain")).build(),
                            HttpResponse.BodyHandlers.ofString()));
                }
                hold.countDown();
                assertTrue(cookie(first.get()).startsWith("sid=1;"));
                Set<String> seen = new HashSet<>();
                for (var o : others) {
                    HttpResponse<String> r = o.get();
                    assertEquals(200, r.statusCode());
                    assertFalse(cookie(r).startsWith("sid=1;"), cacheMore + ": another client got the first's cookie: " + r.headers().map());
                    if (!cookie(r).isEmpty()) {
                        assertTrue(seen.add(cookie(r)), "two clients got one cookie: " + cookie(r));
                    }
                }
            } finally {
                hold = null;
            }
        }
    }

    @Test
    void aStaleWhileRevalidateRefreshThatSetsACookieNeverReachesAnotherClient() throws Exception {
        try (FileGate g = gate(", \"storeWithSetCookie\": \"strip\"")) {
            assertTrue(cookie(get(g, "/p/c/stale")).startsWith("sid=1;"));
            HttpResponse<String> stale = get(g, "/p/c/stale");
            assertTrue(cacheStatus(stale).contains("stale-while-revalidate"), cacheStatus(stale));
            assertFalse(stale.headers().firstValue("Set-Cookie").isPresent());
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> calls.get() >= 2);   // the refresh, which set sid=2
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {   // served the refreshed answer, never its cookie
                HttpResponse<String> r = get(g, "/p/c/stale");
                assertFalse(r.headers().firstValue("Set-Cookie").isPresent(), r.headers().map().toString());
                return !r.body().equals("{\"n\":1}");
            });
        }
    }

    @Test
    void aComposedCallsAnswerThatSetsACookieIsStoredOnlyWhenAskedToStripIt() throws Exception {
        try (FileGate g = gate("")) {
            assertEquals(200, get(g, "/composed").statusCode());
            HttpResponse<String> second = get(g, "/composed");
            assertEquals("{\"n\":2}", second.body(), "not stored: the second call went upstream");
            assertFalse(cacheStatus(second).contains("hit"), cacheStatus(second));
        }
        calls.set(0);
        try (FileGate g = gate(", \"storeWithSetCookie\": \"strip\"")) {
            get(g, "/composed");
            HttpResponse<String> second = get(g, "/composed");
            assertEquals("{\"n\":1}", second.body());
            assertTrue(cacheStatus(second).contains("hit"), cacheStatus(second));
            assertFalse(second.headers().firstValue("Set-Cookie").isPresent());
            assertEquals(1, calls.get());
        }
    }
}
