package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.testing.HistogramQuantile;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.TestClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * loomgate's metrics as a real Prometheus sees them (Debian's {@code prometheus} package, which
 * {@code scripts/test} installs where it may; skipped with the reason printed otherwise):
 * {@code promtool check metrics} accepts the exposition, Prometheus scrapes it, and PromQL's
 * {@code histogram_quantile(0.99, ...)} over the route's buckets is the estimate loomgate's buckets
 * promise: equal to the same algorithm run here, and within 5% of the exact p99 of loomgate's own
 * timings of those requests (its access log). The client's own clock is not the reference here: in a
 * cold test JVM its 50 new connections add more than the 5% being checked.
 */
class PrometheusScrapeTest {

    private static final int REQUESTS = 200;

    @Test
    @SuppressWarnings("unchecked")
    void prometheusScrapesItAndItsP99IsWithinFivePercent() throws Exception {
        Optional<Path> prometheus = LocalTools.installed("prometheus");
        Optional<Path> promtool = LocalTools.installed("promtool");
        if (prometheus.isEmpty() || promtool.isEmpty()) {
            System.out.println("PrometheusScrapeTest: SKIPPED: prometheus or promtool is not installed"
                    + " (install: sudo apt-get install prometheus)");
        }
        Assumptions.assumeTrue(prometheus.isPresent() && promtool.isPresent(), "prometheus is not installed");

        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--access-log"));
             TestClient client = new TestClient(gate.baseUri());
             LogCapture access = LogCapture.of("loomgate.access")) {
            load(client);
            // a request's line is logged just after its answer is written, so the last may trail the client a little
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() ->
                    access.lines().stream().filter(l -> l.contains("GET /block 200 ")).count() >= REQUESTS);
            double[] serverMs = access.lines().stream().filter(l -> l.contains("GET /block 200 "))
                    .mapToDouble(l -> Double.parseDouble(l.replaceAll(".* ([0-9.]+)ms id=.*", "$1"))).sorted().toArray();
            assertEquals(REQUESTS, serverMs.length, "one access-log line per request");
            String exposition = client.get("/metrics?format=prometheus").body();
            Process check = new ProcessBuilder(promtool.get().toString(), "check", "metrics").redirectErrorStream(true).start();
            check.getOutputStream().write(exposition.getBytes(StandardCharsets.UTF_8));
            check.getOutputStream().close();
            String lint = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, check.waitFor(), "promtool check metrics: " + lint);

            Path dir = Files.createTempDirectory("loomgate-prometheus");
            int port = LocalTools.freePort();
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: 1s
                    scrape_configs:
                      - job_name: loomgate
                        static_configs:
                          - targets: ['127.0.0.1:%d']
                    """.formatted(gate.baseUri().getPort()));
            Process server = new ProcessBuilder(prometheus.get().toString(), "--config.file=" + dir.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            try (TestClient api = new TestClient(java.net.URI.create("http://127.0.0.1:" + port))) {
                String count = "loomgate_request_duration_seconds_count{route=\"/block\"}";
                awaitValue(api, count, REQUESTS, server, dir);
                String promql = "histogram_quantile(0.99, loomgate_request_duration_seconds_bucket{route=\"/block\"})";
                double fromPrometheus = query(api, promql);

                PrometheusText scraped = PrometheusText.parse(client.get("/metrics?format=prometheus").body());
                double here = HistogramQuantile.estimate(0.99,
                        HistogramQuantile.increase(null, scraped, "loomgate_request_duration_seconds", "route", "/block"));
                assertEquals(here, fromPrometheus, 1e-9, "PromQL and the estimator the unit tests use agree");

                double exact = serverMs[(int) Math.ceil(0.99 * serverMs.length) - 1] / 1000;
                double error = Math.abs(fromPrometheus - exact) / exact;
                System.out.printf("PrometheusScrapeTest: PromQL p99 %.1f ms, exact p99 %.1f ms (%.1f%%)%n",
                        fromPrometheus * 1000, exact * 1000, 100 * error);
                assertTrue(error <= 0.05, "PromQL p99 " + fromPrometheus + " s against the exact " + exact + " s");
            } finally {
                server.destroy();
                server.waitFor(10, TimeUnit.SECONDS);
                server.destroyForcibly();
                LocalTools.deleteTree(dir);
            }
        }
    }

    /** {@value #REQUESTS} requests of /block (300 ms), 50 at a time. */
    private static void load(TestClient client) {
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        try (var executor = java.util.concurrent.Executors.newFixedThreadPool(50)) {
            for (int i = 0; i < REQUESTS; i++) {
                all.add(CompletableFuture.supplyAsync(() -> client.get("/block").statusCode(), executor));
            }
        }
        all.forEach(f -> assertEquals(200, f.join()));
    }

    private static void awaitValue(TestClient api, String promql, double wanted, Process server, Path dir)
            throws Exception {
        for (int i = 0; i < 300; i++) {
            if (!server.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                if (query(api, promql) == wanted) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet, or no sample yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("prometheus never scraped " + promql + " = " + wanted + ": "
                + Files.readString(dir.resolve("prometheus.log")));
    }

    @SuppressWarnings("unchecked")
    private static double query(TestClient api, String promql) {
        Map<String, Object> answer = api.getJson("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        List<Map<String, Object>> result = (List<Map<String, Object>>) ((Map<String, Object>) answer.get("data")).get("result");
        if (result.isEmpty()) {
            throw new IllegalStateException("no result yet");
        }
        return Double.parseDouble((String) ((List<Object>) result.getFirst().get("value")).get(1));
    }
}
