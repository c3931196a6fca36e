package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A passing active health check ends a passive ejection (Envoy's default): a replica ejected for
 * ten minutes after one 503 takes calls again as soon as it passes a check; with
 * {@code "endsEjection": false} it stays out for its ejection, however many checks it passes.
 */
class HealthEndsEjectionTest {

    @TempDir
    Path dir;

    private static long served(ApiUpstream u) {
        return u.events().stream().filter(e -> e.startsWith("end /api")).count();
    }

    private static long checked(ApiUpstream u) {
        return u.events().stream().filter(e -> e.startsWith("end /healthz")).count();
    }

    private FileGate gate(ApiUpstream a, ApiUpstream b, String more) throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"" + a.url() + "/api\", \"" + b.url()
                        + "/api\"], \"balance\": \"round-robin\", \"outliers\": {\"consecutiveFailures\": 1, \"baseEjection\": \"10m\"},"
                        + " \"health\": {\"path\": \"/healthz\", \"every\": \"50ms\"" + more + "}}",
                List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"));
    }

    private static void ejectB(FileGate g) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> g.client().get("/x").statusCode() == 502);
        String state = g.gate().upstreams().endpoints(UpstreamId.of("api")).toString();
        assertTrue(state.contains("ejections=1"), "b was ejected (a passing check may already have ended it): " + state);
    }

    @Test
    void aPassingCheckEndsTheEjection() throws Exception {
        try (ApiUpstream a = ApiUpstream.start().answer("/api", "{}").answer("/healthz", "{}");
             ApiUpstream b = ApiUpstream.start().answer("/api", "{}").answer("/healthz", "{}").failFirst("/api", 1, 503);
             FileGate g = gate(a, b, "")) {
            ejectB(g);
            long before = served(b);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                g.client().get("/x");
                return served(b) > before;
            });
        }
    }

    @Test
    void withEndsEjectionFalseTheEjectionRunsItsCourse() throws Exception {
        try (ApiUpstream a = ApiUpstream.start().answer("/api", "{}").answer("/healthz", "{}");
             ApiUpstream b = ApiUpstream.start().answer("/api", "{}").answer("/healthz", "{}").failFirst("/api", 1, 503);
             FileGate g = gate(a, b, ", \"endsEjection\": false")) {
            ejectB(g);
            long before = served(b);
            long checks = checked(b);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> checked(b) >= checks + 3);   // it passed checks since
            for (int i = 0; i < 10; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(before, served(b), "still ejected: its ten minutes are not over");
        }
    }
}
