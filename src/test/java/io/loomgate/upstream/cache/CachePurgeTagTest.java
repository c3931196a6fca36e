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
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Purge by tag, as the CDNs have it: an upstream's {@code Cache-Tag} (commas) or {@code Surrogate-Key}
 * (spaces) tags what is stored, {@code DELETE /admin/cache/{upstream}?tag=T} drops every answer with
 * that tag whichever route stored it, and the client never sees the tags; {@code &soft=true} marks
 * them stale instead, so a revalidation keeps the body and {@code staleIfError} still covers a failure.
 */
class CachePurgeTagTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final BlockingQueue<String> conditions = new LinkedBlockingQueue<>();
    private volatile boolean failing;

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/api/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                String inm = exchange.getRequestHeaders().getFirst("If-None-Match");
                conditions.add(path + " " + (inm == null ? "-" : inm));
                if (failing) {
                    exchange.sendResponseHeaders(503, -1);
                    return;
                }
                exchange.getResponseHeaders().set("Cache-Control", "max-age=3600");
                exchange.getResponseHeaders().set("ETag", "\"e\"");
                switch (path) {
                    case "/api/red-shoe" -> exchange.getResponseHeaders().set("Cache-Tag", "red, shoes");
                    case "/api/blue-shoe" -> exchange.getResponseHeaders().set("Surrogate-Key", "blue  shoes");
                    default -> exchange.getResponseHeaders().set("Cache-Tag", "hats");
                }
                if ("\"e\"".equals(inm)) {
                    exchange.sendResponseHeaders(304, -1);
                    return;
                }
                byte[] b = path.getBytes(StandardCharsets.UTF_8);
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

    private FileGate gate(String cache) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/api/\", \"cache\": " + cache + "}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}",
                        "{\"path\": \"/q/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"), "--admin-port", "0");
    }

    private static HttpResponse<String> get(FileGate g, String path) throws Exception {
        return g.client().http().send(HttpRequest.newBuilder(g.gate().uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> purge(FileGate g, TestClient admin, String query) throws Exception {
        return admin.http().send(HttpRequest.newBuilder(g.gate().adminUri("/admin/cache/api" + query)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTagPurgesEveryAnswerThatCarriesItAcrossRoutes() throws Exception {
        try (FileGate g = gate("{\"maxBytes\": \"1MB\"}"); TestClient admin = new TestClient(g.gate().adminUri(""))) {
            for (String path : List.of("/p/red-shoe", "/q/blue-shoe", "/p/hat")) {
                HttpResponse<String> r = get(g, path);
                assertTrue(r.headers().firstValue("Cache-Tag").isEmpty() && r.headers().firstValue("Surrogate-Key").isEmpty(),
                        "the tags are for the cache: " + r.headers().map());
                get(g, path);
            }
            assertEquals(1, calls.get("/api/red-shoe").get(), "stored once");
            assertEquals(1, calls.get("/api/blue-shoe").get(), "stored once");
            HttpResponse<String> shoes = purge(g, admin, "?tag=shoes");
            assertEquals("{\"purged\":2}", shoes.body(), "the red shoe (Cache-Tag) and the blue one (Surrogate-Key), from two routes");
            get(g, "/p/red-shoe");
            get(g, "/q/blue-shoe");
            get(g, "/p/hat");
            assertEquals(2, calls.get("/api/red-shoe").get());
            assertEquals(2, calls.get("/api/blue-shoe").get());
            assertEquals(1, calls.get("/api/hat").get(), "another tag's answer stays");
            assertEquals("{\"purged\":0}", purge(g, admin, "?tag=red,shoes").body(), "a tag is one whole tag");
            assertEquals(400, purge(g, admin, "?tag=hats&key=/api/hat").statusCode());
            assertEquals(400, purge(g, admin, "?tag=hats&soft=maybe").statusCode());
        }
    }

    @Test
    void aSoftPurgeMarksStaleSoARevalidationKeepsTheBodyAndAFailureIsCovered() throws Exception {
        try (FileGate g = gate("{\"maxBytes\": \"1MB\", \"staleIfError\": \"1h\"}"); TestClient admin = new TestClient(g.gate().adminUri(""))) {
            get(g, "/p/hat");
            conditions.clear();
            assertEquals("{\"purged\":1}", purge(g, admin, "?tag=hats&soft=true").body());
            HttpResponse<String> again = get(g, "/p/hat");
            assertEquals("/api/hat", again.body());
            assertEquals("/api/hat \"e\"", conditions.poll(), "stale, so revalidated with its ETag: the body was kept");
            assertTrue(again.headers().firstValue("Cache-Status").orElse("").contains("fwd-status=304"), again.headers().map().toString());
            assertEquals("{\"purged\":1}", purge(g, admin, "?key=/api/hat&soft=true").body());
            failing = true;
            HttpResponse<String> covered = get(g, "/p/hat");
            assertEquals(200, covered.statusCode(), "the upstream fails, and the soft-purged answer is served within staleIfError");
            assertEquals("/api/hat", covered.body());
            assertTrue(covered.headers().firstValue("Cache-Status").orElse("").contains("stale-if-error"), covered.headers().map().toString());
        }
    }

    @Test
    void aTagPurgesWhatComposedCallsStoredToo() throws Exception {
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}",
                        "{\"path\": \"/look\", \"policy\": \"compose\", \"calls\": {\"shoe\": {\"upstream\": \"api\", \"path\": \"/blue-shoe\"},"
                                + " \"own\": {\"upstream\": \"api\", \"path\": \"/hat\", \"cache\": {\"maxBytes\": \"1MB\"}}}}"),
                "--admin-port", "0"); TestClient admin = new TestClient(g.gate().adminUri(""))) {
            for (int i = 0; i < 2; i++) {
                assertEquals(200, get(g, "/look").statusCode());
                assertEquals(200, get(g, "/p/red-shoe").statusCode());
            }
            assertEquals(1, calls.get("/api/blue-shoe").get(), "stored by the composed call");
            assertEquals(1, calls.get("/api/hat").get(), "stored in the call's own cache");
            assertEquals("{\"purged\":2}", purge(g, admin, "?tag=shoes").body(), "the composed call's blue shoe and the proxied red one");
            assertEquals("{\"purged\":1}", purge(g, admin, "?tag=hats").body(), "from the call's own cache");
            get(g, "/look");
            assertEquals(2, calls.get("/api/blue-shoe").get());
            assertEquals(2, calls.get("/api/hat").get());
        }
    }
}
