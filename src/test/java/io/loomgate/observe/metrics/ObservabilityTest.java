package io.loomgate.observe.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.Background;
import io.loomgate.testing.LogCapture;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** The log lines, the pin counter and the thread dump. */
class ObservabilityTest {

    @Test
    void theMetricsLineAppearsAtTheConfiguredIntervalAndStopsAtShutdown() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate.metrics")) {
            Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--metrics-log", "200ms"));
            try (TestClient client = new TestClient(gate.baseUri())) {
                client.get("/cache?delay=cache:0");
                await().atMost(Duration.ofSeconds(30)).until(() -> log.records().size() >= 4);
            } finally {
                gate.close();
            }
            List<LogRecord> lines = log.records();
            for (LogRecord r : lines) {
                assertTrue(r.getMessage().matches("\\[metrics] inFlight=\\d+ rps=\\d+\\.\\d p99=\\d+\\.\\dms cpu=\\S+ "
                        + "heap=\\d+MB/\\d+MB pinned=-?\\d+"), r.getMessage());
            }
            for (int i = 1; i < lines.size(); i++) {
                long gap = lines.get(i).getInstant().toEpochMilli() - lines.get(i - 1).getInstant().toEpochMilli();
                assertTrue(gap >= 0 && gap < 5_000, "lines in order, and coming: " + gap + " ms apart at a 200 ms interval");
            }
            int atClose = log.records().size();
            Thread.sleep(500);
            assertEquals(atClose, log.records().size(), "no line after shutdown");
        }
    }

    /** The numbers of the line, not only its shape: requests held in flight, then their latency. */
    @Test
    void theMetricsLineCountsWhatIsInFlightAndTheLatencyOfWhatFinished() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate.metrics")) {
            Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--metrics-log", "300ms"));
            try (TestClient client = new TestClient(gate.baseUri())) {
                List<CompletableFuture<HttpResponse<String>>> slow = new java.util.ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    slow.add(Background.supply(() -> client.get("/cache?delay=cache:1200ms")));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> log.records().stream()
                        .anyMatch(r -> r.getMessage().startsWith("[metrics] inFlight=3 ")));
                slow.forEach(f -> assertEquals(200, f.join().statusCode()));
                java.util.regex.Pattern numbers = java.util.regex.Pattern.compile("inFlight=(\\d+) rps=(\\d+\\.\\d) p99=(\\d+\\.\\d)ms");
                java.util.function.Function<String, Double> p99Of = line -> {
                    java.util.regex.Matcher n = numbers.matcher(line);
                    return n.find() ? Double.parseDouble(n.group(3)) : -1;
                };
                await().atMost(Duration.ofSeconds(30)).until(() -> log.records().stream()
                        .anyMatch(r -> p99Of.apply(r.getMessage()) >= 1200));
                String finished = log.records().stream().map(LogRecord::getMessage)
                        .filter(l -> p99Of.apply(l) >= 1200).findFirst().orElseThrow();
                java.util.regex.Matcher m = numbers.matcher(finished);
                assertTrue(m.find(), finished);
                double p99 = Double.parseDouble(m.group(3));
                assertTrue(p99 < 3_000, "three 1.2 s requests: p99 " + p99 + " ms");
                double rps = Double.parseDouble(m.group(2));
                assertTrue(rps > 0 && rps <= 3 / 0.25, "three requests in a 300 ms interval: rps " + rps);
                await().atMost(Duration.ofSeconds(30)).until(() -> log.records().getLast().getMessage()
                        .startsWith("[metrics] inFlight=0 rps=0.0 p99=0.0ms"));
            } finally {
                gate.close();
            }
        }
    }

    @Test
    void theAccessLogHasOneLinePerRequest() throws Exception {
        try (LogCapture log = LogCapture.of("loomgate.access");
             Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--access-log"));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/cache?delay=cache:10ms");
            String id = r.headers().firstValue("X-Request-Id").orElseThrow();
            await().atMost(Duration.ofSeconds(30)).until(() -> log.records().size() >= 1);
            String line = log.records().getFirst().getMessage();
            assertTrue(line.matches("GET /cache 200 \\d+\\.\\dms id=" + id), line);
        }
    }

    /** Its initializer blocks: a virtual thread that runs it cannot unmount, so it pins its carrier. */
    static final class SlowToInitialize {
        static {
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRealPinRaisesPinnedEvents() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"));
             TestClient client = new TestClient(gate.baseUri())) {
            // JFR starts a second after the server, off its startup; pins count from then on.
            await().atMost(Duration.ofSeconds(30)).until(() -> "running".equals(
                    ((Map<String, Object>) client.getJson("/metrics?format=json").get("virtualThreads")).get("pinMonitor")));
            long before = pinned(client);
            Thread.ofVirtual().start(SlowToInitialize::touch).join();
            await().atMost(Duration.ofSeconds(30)).until(() -> pinned(client) > before);
            Map<String, Object> vt = (Map<String, Object>) client.getJson("/metrics?format=json").get("virtualThreads");
            List<Map<String, Object>> pins = (List<Map<String, Object>>) vt.get("recentPins");
            assertTrue(pins.stream().anyMatch(p -> p.get("frames").toString().contains("SlowToInitialize.<clinit>")), pins.toString());
            assertTrue(client.get("/metrics").body().contains("SlowToInitialize.<clinit>"), "the text format shows the frames");
        }
    }

    @SuppressWarnings("unchecked")
    private static long pinned(TestClient client) {
        return (Long) ((Map<String, Object>) client.getJson("/metrics?format=json").get("virtualThreads")).get("pinnedEvents");
    }

    @Test
    void debugThreadsIsOffByDefault() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"));
             TestClient client = new TestClient(gate.baseUri())) {
            assertEquals(404, client.get("/debug/threads").statusCode());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void debugThreadsShowsTheScopeAndItsSubtasks() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--debug-endpoints"));
             TestClient client = new TestClient(gate.baseUri())) {
            CompletableFuture<HttpResponse<String>> inFlight =
                    Background.supply(() -> client.get("/aggregate?delay=db:1500ms&delay=file:1500ms"));
            await().atMost(Duration.ofSeconds(30)).until(() -> gate.upstreams().calls().inFlight() == 2);
            HttpResponse<String> dump = client.get("/debug/threads");
            assertEquals(200, dump.statusCode());
            assertEquals("application/json", dump.headers().firstValue("Content-Type").orElseThrow());
            Map<String, Object> threadDump = (Map<String, Object>) JsonParser.parseObject(dump.body()).get("threadDump");
            List<Map<String, Object>> containers = (List<Map<String, Object>>) threadDump.get("threadContainers");
            Map<String, Object> scope = containers.stream()
                    .filter(c -> ((String) c.get("container")).startsWith("/aggregate ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no /aggregate scope in " + dump.body()));
            String requestId = ((String) scope.get("container")).split("[ /]")[2];
            List<String> names = ((List<Map<String, Object>>) scope.get("threads")).stream()
                    .map(t -> (String) t.get("name")).toList();
            assertTrue(names.containsAll(List.of("db@" + requestId, "file@" + requestId)), names.toString());
            assertEquals(200, inFlight.join().statusCode());
            assertEquals(requestId, inFlight.join().headers().firstValue("X-Request-Id").orElseThrow());
        }
    }
}
