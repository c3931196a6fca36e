package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Aggregations;
import io.loomgate.testing.TestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The service flags, seen through the endpoints. */
class ServiceFlagsTest {

    private static List<String> fallbackStatuses(String... args) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config(args));
             TestClient client = new TestClient(gate.baseUri())) {
            List<String> statuses = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                statuses.add((String) client.getJson("/aggregate-with-fallback?delay=db:0").get("status"));
            }
            return statuses;
        }
    }

    @Test
    void fileFlakyFailsAboutThirtyPercentOfTheTimeAndASeedRepeatsThePattern() throws Exception {
        List<String> first = fallbackStatuses("--port", "0", "--seed", "42");
        long degraded = first.stream().filter("degraded"::equals).count();
        assertTrue(degraded >= 8 && degraded <= 30, degraded + " of 60 degraded at a 0.3 failure rate");
        assertEquals(first, fallbackStatuses("--port", "0", "--seed", "42"), "the same seed, the same failures");
    }

    @Test
    void latencyFailureRateAndTimeoutFlagsApply() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--latency", "db=1ms,cache-2=5s",
                "--failure-rate", "cache=1", "--timeout", "700ms", "--max-timeout", "1s"));
             TestClient client = new TestClient(gate.baseUri())) {
            Map<String, Object> block = client.getJson("/block");
            long dbMs = (Long) Aggregations.part(block, "db").get("durationMs");
            assertTrue(dbMs < 300, "db with --latency db=1ms took " + dbMs + " ms, less than the 300 ms it replaced");
            assertEquals(700L, block.get("timeoutMs"));

            var cache = client.get("/cache");
            assertEquals(502, cache.statusCode());
            assertTrue(cache.body().contains("cache: random failure (rate 1.0)"), cache.body());

            Map<String, Object> race = client.getJson("/first-success?timeout=1s");
            assertEquals("success", Aggregations.part(race, "cache-1").get("state"), "cache-2 is now slower than cache-1");

            assertEquals(400, client.get("/block?timeout=2s").statusCode(), "above --max-timeout");
            assertEquals(200, client.get("/block?timeout=1s").statusCode());
        }
    }
}
