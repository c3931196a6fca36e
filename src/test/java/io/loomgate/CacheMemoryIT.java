package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream's cache under a flood of distinct keys, in a real process on a 64 MB heap: 3,000
 * answers of 48 KB (about 140 MB) go through a cache of 8 MB, and it never holds more than that,
 * nor does the process run out of memory.
 */
class CacheMemoryIT {

    private static final int BODY = 48 * 1024;

    @Test
    void aFloodOfDistinctKeysNeverHoldsMoreThanMaxBytesOnASmallHeap(@TempDir Path dir) throws Exception {
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        byte[] body = ("\"" + "x".repeat(BODY - 2) + "\"").getBytes(StandardCharsets.UTF_8);
        upstream.createContext("/big", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("Cache-Control", "max-age=600");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "big", "kind": "http", "url": "http://127.0.0.1:%d/big", "forwardQuery": ["k"],
                                "cache": {"maxBytes": "8MB"}}],
                 "routes": [{"path": "/x", "policy": "single", "upstreams": ["big"]}]}
                """.formatted(upstream.getAddress().getPort()));
        try (ChildProcess p = ChildProcess.start(ChildProcess.java("-Xmx64m", "-jar", MainIT.JAR, "--port", "0", "--routes",
                routes.toString()), Map.of(), MainIT.HOME)) {
            Matcher m = MainIT.LISTENING.matcher(p.awaitStdout(l -> MainIT.LISTENING.matcher(l).matches(), Duration.ofSeconds(30)));
            assertTrue(m.matches());
            URI base = URI.create(m.group(1));
            try (TestClient client = new TestClient(base); var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Integer>> batches = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    int from = t;
                    batches.add(pool.submit(() -> {
                        int ok = 0;
                        for (int k = from; k < 3000; k += 16) {
                            ok += client.get("/x?k=" + k).statusCode() == 200 ? 1 : 0;
                        }
                        return ok;
                    }));
                }
                int ok = 0;
                for (Future<Integer> b : batches) {
                    ok += b.get();
                }
                assertEquals(3000, ok, "every answer came: " + p.stderr());
                PrometheusText metrics = PrometheusText.parse(client.get("/metrics?format=prometheus").body());
                double held = metrics.value("loomgate_cache_bytes", Map.of("service", "big"));
                double evicted = metrics.value("loomgate_cache_evictions_total", Map.of("service", "big"));
                assertTrue(held <= 8 * 1024 * 1024, "held " + held + " bytes");
                assertTrue(held > 6 * 1024 * 1024, "and it is used: " + held);
                assertTrue(evicted > 2500, "evicted " + evicted);
                assertTrue(p.stderr().stream().noneMatch(l -> l.contains("OutOfMemoryError")), p.stderr().toString());
                System.out.println("3,000 distinct 48 KB answers through an 8 MB cache on -Xmx64m: held " + (long) held
                        + " bytes, evicted " + (long) evicted);
            }
        } finally {
            upstream.stop(0);
        }
    }
}
