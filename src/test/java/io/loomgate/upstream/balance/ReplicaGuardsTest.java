package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replica behaviours a unit assertion alone used to guard, now through the gateway: a retry
 * goes to another endpoint even when the balance would pick the same one again (hash), and an
 * ejection ends, the endpoint taking calls again.
 */
class ReplicaGuardsTest {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void aRetryGoesToAnotherEndpointEvenWhenTheHashPointsAtTheSameOne() throws Exception {
        try (ApiUpstream live = ApiUpstream.start().answer("/api", "{\"ok\":true}")) {
            String dead = "127.0.0.1:" + MisbehavingUpstream.refusedPort();
            try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"http://" + dead + "/api\", \""
                            + live.url() + "/api\"], \"balance\": \"hash\", \"hashKey\": \"{header.X-User}\","
                            + " \"retry\": {\"attempts\": 2, \"backoff\": \"1ms\", \"budget\": 1}, \"outliers\": {\"consecutiveFailures\": 1000}}",
                    List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
                int hashedToTheDeadOne = 0;
                for (int u = 0; u < 40; u++) {
                    HttpResponse<String> r = g.client().get("/x", "X-User", "user-" + u);
                    Map<String, Object> timeline = g.client().getJson("/debug/requests/" + r.headers().firstValue("X-Request-Id").orElseThrow());
                    List<Map<String, Object>> tries = (List<Map<String, Object>>) timeline.get("attempts");
                    if (dead.equals(tries.getFirst().get("endpoint"))) {
                        hashedToTheDeadOne++;
                        assertEquals(200, r.statusCode(), "the retry went elsewhere: " + timeline);
                        assertNotEquals(dead, tries.get(1).get("endpoint"), timeline.toString());
                    }
                }
                assertTrue(hashedToTheDeadOne > 0, "some user's hash points at the dead endpoint");
            }
        }
    }

    @Test
    void anEjectionEndsAndTheEndpointTakesCallsAgain() throws Exception {
        try (ApiUpstream a = ApiUpstream.start().answer("/api", "{\"r\":\"a\"}");
             ApiUpstream b = ApiUpstream.start().answer("/api", "{\"r\":\"b\"}").failFirst("/api", 1, 503);
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"" + a.url() + "/api\", \""
                             + b.url() + "/api\"], \"balance\": \"round-robin\", \"outliers\": {\"consecutiveFailures\": 1,"
                             + " \"baseEjection\": \"300ms\"}}",
                     List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/x").statusCode() == 502);   // b's one 503
            String state = g.gate().upstreams().endpoints(io.loomgate.core.call.UpstreamId.of("api")).toString();
            assertTrue(state.contains("ejected=true"), "b is ejected after its failure: " + state);
            long before = b.events().stream().filter(e -> e.startsWith("end /api")).count();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                g.client().get("/x");
                return b.events().stream().filter(e -> e.startsWith("end /api")).count() > before;
            });
            assertTrue(g.client().get("/x").body().contains("\"r\""), "and the route serves on");
        }
    }
}
