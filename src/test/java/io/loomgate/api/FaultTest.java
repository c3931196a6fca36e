package io.loomgate.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.testing.Aggregations;
import io.loomgate.testing.TestClient;
import io.loomgate.core.port.Upstream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Failures, timeouts and races at scale; a service that misbehaves; a test file that vanishes. */
class FaultTest {

    private static final List<String> MIX = List.of(
            "/aggregate?fail=file&delay=file:%dms&delay=db:200ms",
            "/aggregate?timeout=%dms&delay=db:150ms",
            "/first-success?delay=cache-1:%dms&delay=cache-2:30ms&delay=database:60ms",
            "/first-success?fail=cache-1,cache-2,database&delay=cache-1:%dms&delay=cache-2:5ms&delay=database:10ms",
            "/aggregate-with-fallback?delay=db:%dms",
            "/multi-aggregate?fail=cache&delay=cache:%dms&delay=db:300ms",
            "/block?delay=db:%dms",
            "/aggregate-with-fallback?timeout=%dms&delay=db:100ms");

    /**
     * Live platform threads, but for Awaitility's poller, which exists only while a test waits.
     * (ThreadMXBean counts the same platform threads; virtual threads are in neither.)
     */
    private static long platformThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !t.getName().startsWith("awaitility")).count();
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void twoThousandMixedRequestsLeakNothing(String mode) throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--threads", mode, "--pool", "64", "--seed", "7"));
             TestClient client = new TestClient(gate.baseUri());
             ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            // A first pass starts the threads the JDK creates lazily (a common-pool worker fires scope deadlines).
            Map<Integer, AtomicInteger> statuses = new TreeMap<>();
            mix(client, callers, 100, statuses);
            long baseline = platformThreads();
            statuses.clear();
            mix(client, callers, 2000, statuses);
            System.out.println(mode + ": 2000 mixed requests at 64 concurrent answered " + statuses);
            assertTrue(OK_FAILED_TIMEOUT.containsAll(statuses.keySet()), "only 200, 502 and 504: " + statuses);
            assertEquals(3, statuses.size(), "all three happened: " + statuses);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertEquals(0, gate.upstreams().calls().inFlight(), "no service call left running");
                assertTrue(platformThreads() <= baseline, "platform threads back to " + baseline + ", now "
                        + platformThreads() + ": " + Thread.getAllStackTraces().keySet().stream().map(Thread::getName).sorted().toList());
            });
        }
    }

    /** {@code count} requests of the mix, 64 at a time, counted by status. */
    private static void mix(TestClient client, ExecutorService callers, int count, Map<Integer, AtomicInteger> statuses)
            throws Exception {
        SplittableRandom random = new SplittableRandom(count);
        Semaphore concurrency = new Semaphore(64);
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String path = String.format(MIX.get(random.nextInt(MIX.size())), 1 + random.nextInt(80));
            concurrency.acquire();
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return client.get(path).statusCode();
                } finally {
                    concurrency.release();
                }
            }, callers));
        }
        for (CompletableFuture<Integer> c : calls) {
            statuses.computeIfAbsent(c.get(), s -> new AtomicInteger()).incrementAndGet();
        }
    }

    private static final Set<Integer> OK_FAILED_TIMEOUT = Set.of(200, 502, 504);

    @Test
    void aServiceThatThrowsUnexpectedlyIsA502ThatNamesIt() throws Exception {
        Upstream broken = () -> {
            throw new IllegalStateException("internal detail of a broken backend");
        };
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"), List.of(), Map.of(UpstreamId.of("db"), broken));
             TestClient client = new TestClient(gate.baseUri())) {
            HttpResponse<String> r = client.get("/aggregate?delay=db:10ms&delay=file:200ms");
            assertEquals(502, r.statusCode(), r.body());
            Map<String, Object> body = TestClient.json(r);
            assertEquals("failed: db", body.get("error"));
            assertEquals("db: unexpected error (logged with the request id)", Aggregations.part(body, "db").get("error"));
            assertEquals("cancelled", Aggregations.part(body, "file").get("state"));
            assertFalse(r.body().contains("IllegalStateException") || r.body().contains("internal detail"), r.body());

            assertEquals(200, client.get("/file").statusCode(), "its sibling still works on its own");
            assertEquals(200, client.get("/health").statusCode(), "the server is fine");
            assertEquals(0, gate.upstreams().calls().inFlight());
        }
    }

    @Test
    void aVanishedTestFileIsA502NeverA500() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"));
             TestClient client = new TestClient(gate.baseUri())) {
            assertEquals(200, client.get("/file").statusCode());
            Files.delete(gate.simulated().sampleFilePath().orElseThrow());
            for (String path : List.of("/file", "/aggregate?delay=db:20ms", "/multi-aggregate?delay=db:20ms&delay=cache:20ms")) {
                HttpResponse<String> r = client.get(path);
                assertEquals(502, r.statusCode(), path + " " + r.body());
                assertTrue(r.body().contains("file: the test file does not exist any more"), r.body());
            }
            HttpResponse<String> fallback = client.get("/aggregate-with-fallback?delay=db:20ms");
            assertEquals(200, fallback.statusCode(), "the fallback covers it");
            assertEquals("fallback", Aggregations.part(TestClient.json(fallback), "file-flaky").get("state"));
            assertEquals(200, client.get("/health").statusCode());
            assertEquals(200, client.get("/block?delay=db:10ms").statusCode());
        }
    }
}
