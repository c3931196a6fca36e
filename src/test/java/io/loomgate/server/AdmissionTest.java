package io.loomgate.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** --max-inflight: above the cap, an immediate 503 with Retry-After, never a queue; operators still see in. */
class AdmissionTest {

    private record Timed(HttpResponse<String> response, long millis) {
    }

    @Test
    @SuppressWarnings("unchecked")
    void aboveTheCapRequestsAreShedAtOnce() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--max-inflight", "50"));
             TestClient client = new TestClient(gate.baseUri())) {
            List<CompletableFuture<Timed>> calls = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                calls.add(Background.supply(() -> {
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = client.get("/block?delay=db:1500ms");
                    return new Timed(r, (System.nanoTime() - t0) / 1_000_000);
                }));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> gate.server().admission().admitted() == 50);
            HttpResponse<String> health = client.get("/health");
            assertEquals(200, health.statusCode(), "/health is exempt");
            assertEquals(200, client.get("/metrics").statusCode(), "/metrics is exempt");

            int ok = 0;
            int shed = 0;
            List<Long> shedMillis = new ArrayList<>();
            for (CompletableFuture<Timed> c : calls) {
                Timed t = c.get();
                int status = t.response().statusCode();
                assertTrue(status == 200 || status == 503, "only 200s and 503s: " + status + " " + t.response().body());
                if (status == 503) {
                    shed++;
                    shedMillis.add(t.millis());
                    assertEquals("1", t.response().headers().firstValue("Retry-After").orElseThrow());
                    assertEquals("overloaded", TestClient.json(t.response()).get("error"));
                } else {
                    ok++;
                }
            }
            assertTrue(ok >= 50 && shed >= 50, ok + " served, " + shed + " shed");
            shedMillis.sort(null);
            long median = shedMillis.get(shedMillis.size() / 2);
            assertTrue(median < 200, "a shed request is answered at once, not after the 1.5 s others wait: median " + median + " ms");
            Map<String, Object> server = (Map<String, Object>) client.getJson("/metrics?format=json").get("server");
            assertEquals((long) shed, server.get("shed"));
        }
    }

    @Test
    void zeroTurnsTheLimitOff() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--max-inflight", "0"));
             TestClient client = new TestClient(gate.baseUri())) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                calls.add(Background.supply(() -> client.get("/block?delay=db:300ms")));
            }
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get().statusCode());
            }
            assertEquals(0, gate.server().admission().shed());
        }
    }
}
