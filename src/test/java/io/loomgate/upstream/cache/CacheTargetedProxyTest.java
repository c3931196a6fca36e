package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * RFC 9213 through a proxy route: {@code CDN-Cache-Control} (and {@code Loomgate-Cache-Control},
 * before it) decides what loomgate's cache does in place of {@code Cache-Control}, and the client
 * sees neither; an invalid one is ignored. The upstream counts what reaches it.
 */
class CacheTargetedProxyTest {

    @TempDir
    Path dir;

    @Test
    void theTargetedFieldDecidesAndTheClientDoesNotSeeIt() throws Exception {
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Map<String, String[]> fields = Map.of(
                "/api/cdn", new String[] {"Cache-Control", "no-store", "CDN-Cache-Control", "max-age=3600"},
                "/api/ours", new String[] {"Cache-Control", "max-age=3600", "CDN-Cache-Control", "max-age=3600", "Loomgate-Cache-Control", "no-store"},
                "/api/invalid", new String[] {"Cache-Control", "no-store", "CDN-Cache-Control", "max-age=\"3600\""});
        HttpServer up = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        up.createContext("/api/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                int n = calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
                String[] f = fields.get(path);
                for (int i = 0; i < f.length; i += 2) {
                    exchange.getResponseHeaders().add(f[i], f[i + 1]);
                }
                byte[] b = (path + " #" + n).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, b.length);
                exchange.getResponseBody().write(b);
            }
        });
        up.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getAddress().getPort()
                + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            for (String path : List.of("cdn", "ours", "invalid")) {
                for (int i = 0; i < 2; i++) {
                    HttpResponse<String> r = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/" + path)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                    assertTrue(r.headers().firstValue("CDN-Cache-Control").isEmpty(), path + ": " + r.headers().map());
                    assertTrue(r.headers().firstValue("Loomgate-Cache-Control").isEmpty(), path + ": " + r.headers().map());
                }
            }
            assertEquals(1, calls.get("/api/cdn").get(), "CDN-Cache-Control's max-age stored it, though Cache-Control said no-store");
            assertEquals(2, calls.get("/api/ours").get(), "Loomgate-Cache-Control's no-store came first");
            assertEquals(2, calls.get("/api/invalid").get(), "a quoted max-age is no valid CDN-Cache-Control: Cache-Control's no-store held");
        } finally {
            up.stop(0);
        }
    }

    @Test
    void surrogateControlTargetedAtLoomgateDecidesAndItsCapabilityGoesUpstream() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        java.util.concurrent.BlockingQueue<String> capabilities = new java.util.concurrent.LinkedBlockingQueue<>();
        HttpServer up = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        up.createContext("/api/", exchange -> {
            try (exchange) {
                calls.incrementAndGet();
                String seen = exchange.getRequestHeaders().getFirst("Surrogate-Capability");
                capabilities.add(seen == null ? "" : seen);
                String target = seen == null ? "" : seen.substring(0, seen.indexOf('='));   // the device the request names, as cache-tests' server reads it
                exchange.getResponseHeaders().add("Cache-Control", "no-store");
                exchange.getResponseHeaders().add("Surrogate-Control", "max-age=3600;" + target);
                byte[] b = "hello".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, b.length);
                exchange.getResponseBody().write(b);
            }
        });
        up.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getAddress().getPort()
                + "/api/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            HttpResponse<String> last = null;
            for (int i = 0; i < 2; i++) {
                last = g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/s")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, last.statusCode());
            }
            assertEquals("loomgate=\"Surrogate/1.0\"", capabilities.poll(), "the cache named itself a surrogate");
            assertEquals(1, calls.get(), "Surrogate-Control's max-age=3600;loomgate stored it over Cache-Control's no-store");
            assertEquals("max-age=3600;loomgate", last.headers().firstValue("Surrogate-Control").orElse(""), "passed to the client");
        } finally {
            up.stop(0);
        }
    }
}
