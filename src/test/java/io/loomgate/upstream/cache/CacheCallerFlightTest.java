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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identical misses share one upstream call, but never across callers when the request is personal:
 * two callers (each its own {@code Authorization}) miss the same URL at once, and each gets its own
 * upstream call and its own answer. (Breaking the flight key to the URL alone would have one
 * caller wait for, and be served, the other's answer.)
 */
class CacheCallerFlightTest {

    @TempDir
    Path dir;

    @Test
    void twoCallersMissingTheSameUrlAtOnceEachGetTheirOwnCallAndAnswer() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch bothArrived = new CountDownLatch(2);
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/me", exchange -> {
            calls.incrementAndGet();
            bothArrived.countDown();
            try {
                bothArrived.await();   // answers only once both callers' calls are here: one shared call would never be
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = ("{\"who\":\"" + exchange.getRequestHeaders().getFirst("Authorization") + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Cache-Control", "max-age=60");
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        upstream.start();
        try (FileGate g = FileGate.start(dir, "{\"id\": \"me\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:"
                        + upstream.getAddress().getPort() + "/me\", \"forwardHeaders\": [\"Authorization\"], \"cache\": {\"maxBytes\": \"1MB\"}}",
                List.of("{\"path\": \"/me\", \"policy\": \"single\", \"upstreams\": [\"me\"], \"answer\": \"value\", \"timeout\": \"20s\"}"))) {
            CompletableFuture<HttpResponse<String>> alice = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/me"))
                    .header("Authorization", "Bearer alice").build(), HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> bob = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/me"))
                    .header("Authorization", "Bearer bob").build(), HttpResponse.BodyHandlers.ofString());
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> calls.get() == 2);
            assertEquals("{\"who\":\"Bearer alice\"}", alice.get().body(), alice.get().headers().map().toString());
            assertEquals("{\"who\":\"Bearer bob\"}", bob.get().body());
            assertTrue(!alice.get().headers().firstValue("Cache-Status").orElse("").contains("collapsed"));
            assertTrue(!bob.get().headers().firstValue("Cache-Status").orElse("").contains("collapsed"));
        } finally {
            upstream.stop(0);
        }
    }
}
