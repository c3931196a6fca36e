package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.TestClient;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * A composed call's own {@code "cache"} ({@code calls.NAME.cache}): a call cached while its upstream
 * has no cache, a call kept out of its upstream's cache with {@code false}, and the call's cache
 * invalidated, purged, counted and kept across a reload as an upstream's is. The upstream counts the
 * GETs it is sent, by path, and says nothing of freshness, so only {@code defaultTtl} stores.
 */
class CacheCallOwnTest {

    @TempDir
    Path dir;

    private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
    private HttpServer upstream;

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                if (!exchange.getRequestMethod().equals("GET")) {
                    exchange.sendResponseHeaders(204, -1);
                    return;
                }
                int n = gets.computeIfAbsent(exchange.getRequestURI().getPath(), p -> new AtomicInteger()).incrementAndGet();
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                byte[] b = ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
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

    private String api(String cache) {
        return "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort() + "\""
                + (cache.isEmpty() ? "" : ", \"cache\": " + cache) + "}";
    }

    private static String page(String itemCache) {
        return "{\"path\": \"/page\", \"policy\": \"compose\", \"calls\": {\"doc\": {\"upstream\": \"api\", \"path\": \"/item\""
                + (itemCache.isEmpty() ? "" : ", \"cache\": " + itemCache) + "}, \"live\": {\"upstream\": \"api\", \"path\": \"/live\"}}}";
    }

    private static final String WRITE = "{\"path\": \"/write\", \"policy\": \"compose\", \"methods\": [\"POST\"],"
            + " \"calls\": {\"w\": {\"upstream\": \"api\", \"method\": \"POST\", \"path\": \"/item\", \"body\": \"request\"}}}";

    private int seen(String path) {
        return gets.getOrDefault(path, new AtomicInteger()).get();
    }

    @Test
    void aCallCachesOnItsOwnWhileItsUpstreamHasNone() throws Exception {
        try (FileGate g = FileGate.start(dir, api(""), List.of(page("{\"maxBytes\": \"1MB\", \"defaultTtl\": \"1h\"}"), WRITE),
                "--admin-port", "0"); TestClient admin = new TestClient(g.gate().adminUri(""))) {
            get(g, "/page");
            HttpResponse<String> second = get(g, "/page");
            assertEquals(1, seen("/item"), "the call with a cache of its own was stored");
            assertEquals(2, seen("/live"), "its sibling, to the same upstream without a cache, was not");
            assertTrue(second.headers().firstValue("Cache-Status").orElse("").contains("loomgate/api; hit"), second.headers().map().toString());

            assertEquals(200, g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/write")).POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            get(g, "/page");
            assertEquals(2, seen("/item"), "a POST to /item through the upstream invalidated the call's own cache");

            String metrics = admin.get("/metrics?format=prometheus").body();
            assertTrue(metrics.contains("loomgate_cache_entries{service=\"api\"} 1"), "the call's cache is counted as the upstream's: " + metrics);
            HttpResponse<String> purged = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/api")).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, purged.statusCode(), purged.body());
            assertTrue(purged.body().contains("\"purged\":1"), purged.body());
            get(g, "/page");
            assertEquals(3, seen("/item"), "the admin API purged the call's cache");
        }
    }

    @Test
    void falseKeepsACallOutOfItsUpstreamsCache() throws Exception {
        try (FileGate g = FileGate.start(dir, api("{\"maxBytes\": \"1MB\", \"defaultTtl\": \"1h\"}"), List.of(page("false")))) {
            get(g, "/page");
            HttpResponse<String> second = get(g, "/page");
            assertEquals(2, seen("/item"), "\"cache\": false: the call went upstream each time");
            assertEquals(1, seen("/live"), "its sibling went through the upstream's cache");
            String status = second.headers().firstValue("Cache-Status").orElse("");
            assertEquals(1, status.split(",").length, "one call through a cache: " + status);
        }
    }

    @Test
    void aReloadKeepsACallsCacheWhileItsSettingsStayAndDropsItWhenTheyChange() throws Exception {
        String cached = page("{\"maxBytes\": \"1MB\", \"defaultTtl\": \"1h\"}");
        try (FileGate g = FileGate.start(dir, api(""), List.of(cached), "--admin-port", "0");
             TestClient admin = new TestClient(g.gate().adminUri(""))) {
            get(g, "/page");
            get(g, "/page");
            assertEquals(1, seen("/item"));
            reload(g, admin, List.of(cached, WRITE.replace("/write", "/other")));
            get(g, "/page");
            assertEquals(1, seen("/item"), "a reload that leaves the call's settings as they were keeps its answers");
            reload(g, admin, List.of(page("{\"maxBytes\": \"2MB\", \"defaultTtl\": \"1h\"}")));
            get(g, "/page");
            get(g, "/page");
            assertEquals(2, seen("/item"), "new settings, a new cache: one miss, then stored again");
            reload(g, admin, List.of(page("")));
            get(g, "/page");
            assertEquals(3, seen("/item"), "no cache declared any more: the call goes upstream");
            String metrics = admin.get("/metrics?format=prometheus").body();
            assertTrue(metrics.contains("loomgate_requests_total") && !metrics.contains("loomgate_cache_entries{service=\"api\"}"),
                    "and the dropped cache is counted no more: " + metrics);
        }
    }

    private void reload(FileGate g, TestClient admin, List<String> routes) throws Exception {
        Files.writeString(dir.resolve("routes.json"), "{\"upstreams\": [" + api("") + "], \"routes\": [" + String.join(",", routes) + "]}");
        HttpResponse<String> r = admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/reload"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"result\":\"reloaded\""), r.body());
    }

    private static HttpResponse<String> get(FileGate g, String path) throws Exception {
        HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r;
    }
}
