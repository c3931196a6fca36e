package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator endpoints never wait behind the work: on the main port in platform mode, and on
 * their own listener with {@code --admin-port}; and {@code /readyz} follows the lifecycle.
 */
class OperatorListenerTest {

    /**
     * A pool of 2 and 12 requests of 300 ms: the last ones wait about 1.5 s for a pool thread. The
     * operator endpoints must answer while they still wait, as the pool's queue shows afterwards.
     */
    @ParameterizedTest
    @ValueSource(strings = {"main", "admin"})
    @SuppressWarnings("unchecked")
    void aBusyPlatformPoolDelaysNoOperatorEndpoint(String listener) throws Exception {
        List<String> flags = new ArrayList<>(List.of("--port", "0", "--threads", "platform", "--pool", "2"));
        if (listener.equals("admin")) {
            flags.addAll(List.of("--admin-port", "0"));
        }
        try (Loomgate gate = Loomgate.start(CommandLine.config(flags.toArray(String[]::new)));
             TestClient main = new TestClient(gate.baseUri());
             TestClient operator = new TestClient(gate.adminUri(""))) {
            List<CompletableFuture<HttpResponse<String>>> work = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                work.add(CompletableFuture.supplyAsync(() -> main.get("/block")));
            }
            awaitQueued(operator, 8);
            for (String path : List.of("/health", "/metrics", "/readyz", "/livez", "/dashboard", "/debug/requests")) {
                assertEquals(200, operator.get(path).statusCode(), path);
            }
            Map<String, Object> pool = (Map<String, Object>) operator.getJson("/metrics?format=json").get("platformPool");
            long stillQueued = (Long) pool.get("queued");
            assertTrue(stillQueued >= 4, "the operator endpoints answered while " + stillQueued
                    + " requests still waited for a pool thread");
            assertTrue(work.stream().filter(CompletableFuture::isDone).count() <= 8, "most /block requests still wait");
            for (CompletableFuture<HttpResponse<String>> f : work) {
                assertEquals(200, f.get(60, TimeUnit.SECONDS).statusCode(), "the queued work is served too");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void awaitQueued(TestClient operator, long atLeast) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).alias("the pool has " + atLeast + " requests queued")
                .until(() -> (Long) ((Map<String, Object>) operator.getJson("/metrics?format=json").get("platformPool")).get("queued") >= atLeast);
    }

    @Test
    void withAnAdminPortTheOperatorEndpointsLeaveTheMainPort() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--admin-port", "0"));
             TestClient main = new TestClient(gate.baseUri());
             TestClient admin = new TestClient(gate.adminUri(""))) {
            assertTrue(gate.listeningLine().matches(
                    "loomgate listening on http://127\\.0\\.0\\.1:\\d+ \\(threads=virtual, server=(loomgate|jdk); admin on http://127\\.0\\.0\\.1:\\d+\\)"),
                    gate.listeningLine());
            assertFalse(gate.adminUri("").equals(gate.baseUri()));
            for (String path : List.of("/metrics", "/livez", "/readyz", "/dashboard", "/debug/requests")) {
                assertEquals(404, main.get(path).statusCode(), "main " + path);
                assertEquals(200, admin.get(path).statusCode(), "admin " + path);
            }
            assertEquals(200, main.get("/health").statusCode());
            assertEquals(200, admin.get("/health").statusCode());
            assertEquals(404, admin.get("/block").statusCode(), "no route work on the admin listener");
            String id = main.get("/cache").headers().firstValue("X-Request-Id").orElseThrow();
            assertEquals(200, admin.get("/debug/requests/" + id).statusCode(), "the admin listener sees the main one's requests");
            assertTrue(admin.get("/metrics").body().contains("/cache"));
        }
    }

    @Test
    void readyzTurns503WhileDrainingAndLivezStaysUp() throws Exception {
        Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--admin-port", "0", "--shutdown-grace", "5s"));
        try (TestClient main = new TestClient(gate.baseUri()); TestClient admin = new TestClient(gate.adminUri(""))) {
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> main.get("/block?delay=db:1s"));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> gate.server().admission().admitted() == 1);
            CompletableFuture<?> closing = CompletableFuture.runAsync(gate::shutdown);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> admin.get("/readyz").statusCode() == 503);
            HttpResponse<String> ready = admin.get("/readyz");
            assertEquals(503, ready.statusCode());
            assertEquals("{\"status\":\"DRAINING\"}", ready.body());
            assertEquals(200, admin.get("/livez").statusCode(), "alive while draining");
            assertFalse(slow.isDone(), "the probe turned before the in-flight request ended");
            assertEquals(200, slow.get(60, TimeUnit.SECONDS).statusCode(), "the in-flight request is served");
            closing.get(60, TimeUnit.SECONDS);
        } finally {
            gate.close();
        }
    }
}
