package io.loomgate.edge.listener;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Background;
import io.loomgate.testing.LogCapture;
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

    private record Timed(HttpResponse<String> response, long doneAt) {
    }

    @Test
    @SuppressWarnings("unchecked")
    void aboveTheCapRequestsAreShedAtOnce() throws Exception {
        try (LogCapture access = LogCapture.of("loomgate.access");
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--max-inflight", "50", "--access-log"));
             TestClient client = new TestClient(gate.baseUri())) {
            access.clear();
            List<CompletableFuture<Timed>> calls = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                calls.add(Background.supply(() -> {
                    HttpResponse<String> r = client.get("/block?delay=db:5s&timeout=10s");
                    return new Timed(r, System.nanoTime());
                }));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.server().admission().admitted() == 50);
            HttpResponse<String> health = client.get("/health");
            assertEquals(200, health.statusCode(), "/health is exempt");
            assertEquals(200, client.get("/metrics").statusCode(), "/metrics is exempt");

            int ok = 0;
            int shed = 0;
            long lastShed = Long.MIN_VALUE;
            long firstServed = Long.MAX_VALUE;
            for (CompletableFuture<Timed> c : calls) {
                Timed t = c.get();
                int status = t.response().statusCode();
                assertTrue(status == 200 || status == 503, "only 200s and 503s: " + status + " " + t.response().body());
                if (status == 503) {
                    shed++;
                    lastShed = Math.max(lastShed, t.doneAt());
                    assertEquals("1", t.response().headers().firstValue("Retry-After").orElseThrow());
                    assertEquals("overloaded", TestClient.json(t.response()).get("error"));
                } else {
                    ok++;
                    firstServed = Math.min(firstServed, t.doneAt());
                }
            }
            System.out.println("--max-inflight 50, 150 concurrent 5 s requests: " + ok + " served, " + shed + " shed");
            assertTrue(ok >= 50 && shed >= 50, ok + " served, " + shed + " shed");
            assertTrue(lastShed < firstServed, "every shed request was answered while the admitted ones still ran: never queued");
            long logged = access.records().stream().map(r -> r.getMessage()).filter(l -> l.startsWith("GET /block 503 ")).count();
            assertEquals(shed, logged, "each shed request is in the access log");
            Map<String, Object> server = (Map<String, Object>) client.getJson("/metrics?format=json").get("server");
            assertEquals((long) shed, server.get("shed"));
        }
    }

    @Test
    void inPlatformModeTheLimitShedsBeforeThePoolsQueue() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--threads", "platform", "--pool", "2",
                "--max-inflight", "3"));
             TestClient client = new TestClient(gate.baseUri())) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                calls.add(Background.supply(() -> client.get("/block?delay=db:2s&timeout=5s")));
            }
            int ok = 0;
            int shed = 0;
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                int status = c.get().statusCode();
                ok += status == 200 ? 1 : 0;
                shed += status == 503 ? 1 : 0;
            }
            System.out.println("platform pool 2, --max-inflight 3, 20 concurrent 2 s requests: " + ok + " served, " + shed + " shed");
            assertEquals(20, ok + shed);
            // Three are admitted (two run, one waits for a pool thread) and hold for 2 s; the rest arrive meanwhile.
            assertTrue(ok >= 1 && ok <= 6, ok + " served");
            assertEquals(shed, gate.server().admission().shed());
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
