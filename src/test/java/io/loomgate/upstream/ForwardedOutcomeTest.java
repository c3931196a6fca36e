package io.loomgate.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.PrometheusText;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxied exchange has one outcome: the call log (what the upstream stack saw) and the metrics
 * (what the route saw) agree that a 5xx is the upstream's failure and a 4xx its answer. They used
 * to disagree: the metrics counted a 503 as failed, the call log as a success.
 */
class ForwardedOutcomeTest {

    @TempDir
    Path dir;

    @Test
    void theCallLogAndTheMetricsTellAProxied5xxAndA4xxAlike() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/down", 503, "{}").answer("/missing", 404, "{}");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"))) {
            HttpResponse<String> down = g.client().get("/p/down");
            HttpResponse<String> missing = g.client().get("/p/missing");
            assertEquals(503, down.statusCode());
            assertEquals(404, missing.statusCode());
            Outcome downLogged = logged(g, down);
            Outcome missingLogged = logged(g, missing);
            assertInstanceOf(Outcome.Failed.class, downLogged, "a 5xx is the upstream's failure in the call log");
            assertEquals(java.util.OptionalInt.of(503), ((Outcome.Failed) downLogged).status());
            assertInstanceOf(Outcome.Success.class, missingLogged, "a 4xx is its answer");
            // Counted as each answer's body ended, which may be a moment after the client read it.
            org.awaitility.Awaitility.await().until(() -> PrometheusText.parse(g.client().get("/metrics?format=prometheus").body())
                    .samples().stream().filter(x -> x.name().equals("loomgate_service_calls_total")
                            && x.labels().get("service").equals("api")).mapToDouble(PrometheusText.Sample::value).sum() == 2);
            PrometheusText metrics = PrometheusText.parse(g.client().get("/metrics?format=prometheus").body());
            assertEquals(1, metrics.value("loomgate_service_calls_total", Map.of("service", "api", "outcome", "failed")),
                    "and in the metrics, the same");
            assertEquals(1, metrics.value("loomgate_service_calls_total", Map.of("service", "api", "outcome", "success")));
        }
    }

    private static Outcome logged(FileGate g, HttpResponse<String> r) {
        String id = r.headers().firstValue("X-Request-Id").orElseThrow();
        org.awaitility.Awaitility.await().until(() -> !g.gate().upstreams().calls().callsOf(id).isEmpty());
        List<CallRecord> calls = g.gate().upstreams().calls().callsOf(id);
        assertEquals(1, calls.size(), calls.toString());
        assertEquals(UpstreamId.of("api"), calls.getFirst().upstream());
        return calls.getFirst().outcome();
    }
}
