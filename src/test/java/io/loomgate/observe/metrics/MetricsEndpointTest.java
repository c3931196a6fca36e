package io.loomgate.observe.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.Background;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** /metrics over real HTTP: exact counts, outcomes that match what happened, gauges, formats. */
class MetricsEndpointTest {

    private static Loomgate gate;
    private static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        gate = Loomgate.start(CommandLine.config("--port", "0"));
        client = new TestClient(gate.baseUri());
    }

    @AfterAll
    static void stop() {
        client.close();
        gate.close();
    }

    private static Map<String, Object> json() {
        return client.getJson("/metrics?format=json");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> route(String path) {
        return (Map<String, Object>) ((Map<String, Object>) json().get("routes")).get(path);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(String name) {
        return (Map<String, Object>) ((Map<String, Object>) json().get("services")).get(name);
    }

    @SuppressWarnings("unchecked")
    private static long calls(String service, String outcome) {
        return (Long) ((Map<String, Object>) service(service).get("calls")).get(outcome);
    }

    @Test
    void countsAreExactAfterAThousandConcurrentRequests() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            calls.add(Background.supply(() -> client.get("/cache?delay=cache:20ms")));
        }
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            assertEquals(200, c.get().statusCode());
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Map<String, Object> cache = route("/cache");
            assertEquals(1000L, cache.get("requests"));
            assertEquals(Map.of("200", 1000L), cache.get("statuses"));
            assertEquals(0L, cache.get("inFlight"));
            assertEquals(1000L, calls("cache", "success"));
        });
    }

    @Test
    void outcomesMatchWhatHappened() {
        long cancelled = calls("db", "cancelled");
        long failed = calls("file", "failed");
        assertEquals(502, client.get("/aggregate?fail=file&delay=file:50ms").statusCode());
        assertEquals(cancelled + 1, calls("db", "cancelled"));
        assertEquals(failed + 1, calls("file", "failed"));

        long timeouts = calls("database", "timeout");
        client.get("/first-success?fail=cache-1,cache-2&timeout=300ms");
        assertEquals(timeouts + 1, calls("database", "timeout"));
    }

    @Test
    void orphanedWorkIsMeasuredForTheBaselineOnly() {
        double before = orphanedMs();
        long orphaned = calls("db", "orphaned");
        assertEquals(502, client.get("/aggregate-cf?fail=file&delay=file:50ms").statusCode());
        assertEquals(orphaned + 1, calls("db", "orphaned"));
        // db (300 ms) kept working after the answer (~50 ms): how long depends on how fast the answer was, so only that it did
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertTrue(orphanedMs() > before, "db kept working after its answer"));
        double settled = orphanedMs();
        assertEquals(502, client.get("/aggregate?fail=file&delay=file:50ms").statusCode());
        assertEquals(settled, orphanedMs(), "structured policies orphan nothing");
    }

    private static double orphanedMs() {
        return ((Number) service("db").get("orphanedMs")).doubleValue();
    }

    @Test
    void inFlightGaugesRiseAndReturnToZero() {
        CompletableFuture<HttpResponse<String>> slow = Background.supply(() -> client.get("/block?delay=db:1500ms"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertEquals(1L, route("/block").get("inFlight"));
            assertEquals(1L, service("db").get("inFlight"));
        });
        assertEquals(200, slow.join().statusCode());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertEquals(0L, route("/block").get("inFlight"));
            assertEquals(0L, service("db").get("inFlight"));
        });
    }

    @Test
    void randomPathsAllCountAsUnmatched() {
        Set<String> keys = ((Map<?, ?>) json().get("routes")).keySet().stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.toSet());
        long before = (Long) route("unmatched").get("requests");
        for (int i = 0; i < 50; i++) {
            assertEquals(404, client.get("/random-" + i + "-" + System.nanoTime()).statusCode());
        }
        assertEquals(keys, ((Map<?, ?>) json().get("routes")).keySet().stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.toSet()), "no key per random path");
        await().atMost(Duration.ofSeconds(30)).until(() -> (Long) route("unmatched").get("requests") == before + 50);
    }

    @Test
    void theJsonHasTheDocumentedKeys() {
        Map<String, Object> j = json();
        assertTrue(j.keySet().containsAll(List.of("server", "routes", "services", "jvm", "virtualThreads")), j.keySet().toString());
        assertTrue(((Map<?, ?>) j.get("server")).keySet().containsAll(
                List.of("threads", "pool", "uptimeMs", "inFlight", "requests", "averageResponseMs", "shed")));
        assertTrue(((Map<?, ?>) j.get("jvm")).keySet().containsAll(List.of("heapUsedBytes", "heapMaxBytes", "gcCount",
                "gcTimeMs", "processCpuLoad", "uptimeMs", "platformThreads")));
        assertTrue(((Map<?, ?>) j.get("virtualThreads")).keySet().containsAll(
                List.of("started", "parallelism", "poolSize", "mounted", "queued", "pinnedEvents")));
        assertTrue((Long) ((Map<?, ?>) j.get("virtualThreads")).get("started") > 0);
        assertEquals(null, ((Map<?, ?>) j.get("server")).get("pool"), "virtual mode has no pool");
        assertTrue(service("db").keySet().containsAll(List.of("inFlight", "calls", "latencyMs", "orphanedMs")));
    }

    private static HttpResponse<String> withAccept(String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gate.baseUri() + "/metrics"));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return client.http().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void contentNegotiation() throws Exception {
        HttpResponse<String> text = withAccept(null);
        assertEquals("text/plain; charset=utf-8", text.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(text.body().contains("\nActive Requests: "), text.body());

        String scrape = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        HttpResponse<String> prom = withAccept(scrape);
        assertEquals("text/plain; version=0.0.4; charset=utf-8", prom.headers().firstValue("Content-Type").orElseThrow());
        PrometheusText.parse(prom.body());

        assertEquals("application/json", withAccept("application/json").headers().firstValue("Content-Type").orElseThrow());
        assertEquals("text/plain; charset=utf-8", withAccept("junk;;q=x,,@@, */*;q=zz").headers().firstValue("Content-Type").orElseThrow());

        HttpResponse<String> byParam = client.get("/metrics?format=prometheus");
        assertEquals("text/plain; version=0.0.4; charset=utf-8", byParam.headers().firstValue("Content-Type").orElseThrow());
        HttpResponse<String> bad = client.get("/metrics?format=xml");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("format must be one of text, prometheus, json, got 'xml'"), bad.body());
        assertEquals(400, client.get("/metrics?format=json&format=text").statusCode());
    }

    @Test
    void theLivePrometheusOutputParsesStrictlyAndAgreesWithTheJson() {
        client.get("/block?delay=db:0");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            PrometheusText p = PrometheusText.parse(client.get("/metrics?format=prometheus").body());
            long blocks = (Long) route("/block").get("requests");
            assertEquals(blocks, (long) p.value("loomgate_request_duration_seconds_count", Map.of("route", "/block")));
        });
    }
}
