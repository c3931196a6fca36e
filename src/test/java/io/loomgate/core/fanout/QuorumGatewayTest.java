package io.loomgate.core.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.TestClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quorum counts successes, not answers: 2 of 3 with one fast failure and one fast success and a
 * third held by the upstream. The route must wait for the third (the upstream never sees it
 * cancelled) and answer ok only once it has succeeded. (Counting {@code succeeded + failed} would
 * answer ok at the second answer and cancel the third.)
 */
class QuorumGatewayTest {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void twoOfThreeWaitsForTheSecondSuccessNotTheSecondAnswer() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/fail", 503, "{}").answer("/ok", "{\"v\":1}").answer("/slow", "{\"v\":2}")
                .hold("/slow");
             FileGate g = FileGate.start(dir, "{\"id\": \"fail\", \"kind\": \"http\", \"url\": \"" + api.url() + "/fail\"},"
                             + "{\"id\": \"ok\", \"kind\": \"http\", \"url\": \"" + api.url() + "/ok\"},"
                             + "{\"id\": \"slow\", \"kind\": \"http\", \"url\": \"" + api.url() + "/slow\"}",
                     List.of("{\"path\": \"/q\", \"policy\": \"quorum\", \"quorum\": 2, \"upstreams\": [\"fail\", \"ok\", \"slow\"],"
                             + " \"timeout\": \"30s\"}"))) {
            CompletableFuture<HttpResponse<String>> answer = g.client().http().sendAsync(HttpRequest.newBuilder(g.gate().uri("/q")).build(),
                    HttpResponse.BodyHandlers.ofString());
            api.await("end /fail");
            api.await("end /ok");
            api.await("start /slow");
            // one failure and one success are in: a route that counted answers would decide now and cancel /slow.
            // Either that happens, or nothing does until /slow is released: give it the chance, then release.
            try {
                Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> answer.isDone() || api.events().contains("closed /slow"));
            } catch (org.awaitility.core.ConditionTimeoutException waitedForTheThird) {
                // the route is waiting for the third, as it must
            }
            assertFalse(api.events().contains("closed /slow"), "the third call was cancelled: " + api.events());
            assertFalse(answer.isDone(), "the route answered before the second success: " + (answer.isDone() ? answer.get().body() : ""));
            api.release("/slow");
            HttpResponse<String> r = answer.get();
            assertEquals(200, r.statusCode(), r.body());
            Map<String, Object> body = TestClient.json(r);
            assertEquals("ok", body.get("status"), r.body());
            Map<String, Object> slow = ((List<Map<String, Object>>) body.get("results")).stream()
                    .filter(p -> "slow".equals(p.get("service"))).findFirst().orElseThrow();
            assertEquals("success", slow.get("state"), r.body());
        }
    }
}
