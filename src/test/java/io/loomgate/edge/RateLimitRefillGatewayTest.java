package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket refills at its rate, through the gateway: {@code perSecond: 0.5, burst: 1} gives one
 * request, then refuses every request for two seconds, with a {@code Retry-After} of 2, and then
 * gives one again. Only lower bounds on time are asserted (a token can never come back sooner than
 * the rate allows, however loaded the machine), and the refill itself is awaited.
 */
class RateLimitRefillGatewayTest {

    @TempDir
    Path dir;

    @Test
    void anEmptyBucketGetsItsTokenBackAtItsRateAndNotBefore() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/data", "{}");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}",
                     List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"],"
                             + " \"rateLimit\": {\"perSecond\": 0.5, \"burst\": 1, \"by\": \"ip\"}}"))) {
            long start = System.nanoTime();   // before the token is taken: the next one comes 2 s after that, at the earliest
            assertEquals(200, g.client().get("/x").statusCode());
            HttpResponse<String> refused = g.client().get("/x");
            assertEquals(429, refused.statusCode());
            assertEquals("2", refused.headers().firstValue("Retry-After").orElse(""), "1 token at 0.5 per second");
            while (System.nanoTime() - start < Duration.ofMillis(1500).toNanos()) {
                HttpResponse<String> r = g.client().get("/x");
                if (System.nanoTime() - start < Duration.ofMillis(1500).toNanos()) {   // answered within 1.5 s of the start: still empty
                    assertEquals(429, r.statusCode(), "a token came back sooner than 0.5 per second allows");
                }
                Thread.sleep(50);
            }
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> g.client().get("/x").statusCode() == 200);
        }
    }
}
