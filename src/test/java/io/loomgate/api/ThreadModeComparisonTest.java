package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The point of the two modes: with a pool of 8 platform threads, 16 concurrent 2 s calls need
 * two rounds; with a virtual thread each, one round. Bounds are in seconds on purpose: this shows
 * the shape, the load harness measures the speed.
 */
class ThreadModeComparisonTest {

    private static final int CALLS = 16;

    private static long sixteenConcurrentBlocks(String... args) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config(args));
             TestClient client = new TestClient(gate.baseUri());
             ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            assertEquals(200, client.get("/health").statusCode());
            long t0 = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> client.get("/block?timeout=10s"), callers));
            }
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                HttpResponse<String> r = c.get();
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("ok", TestClient.json(r).get("status"));
            }
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }

    @Test
    void aPoolOfEightNeedsTwoRoundsForSixteenCalls() throws Exception {
        long ms = sixteenConcurrentBlocks("--port", "0", "--latency", "db=3s", "--threads", "platform", "--pool", "8");
        assertTrue(ms >= 6_000, "16 calls on 8 platform threads took " + ms + " ms; two rounds of 3 s need 6 s");
        assertTrue(ms < 9_000, "not three rounds: " + ms + " ms");
    }

    @Test
    void virtualThreadsNeedOneRound() throws Exception {
        long ms = sixteenConcurrentBlocks("--port", "0", "--latency", "db=3s");
        assertTrue(ms >= 3_000, "took " + ms + " ms");
        assertTrue(ms < 6_000, "16 calls on virtual threads took " + ms + " ms; one round of 3 s is enough");
    }
}
