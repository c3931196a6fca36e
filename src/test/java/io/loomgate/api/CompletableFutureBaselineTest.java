package io.loomgate.api;

import static io.loomgate.testing.Aggregations.states;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.testing.Aggregations;
import io.loomgate.testing.Background;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.CallLog;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CompletableFuture baselines show the opposite of the structured endpoints: after the answer
 * has gone, the sibling keeps running to its natural end. And the common pool they block is the one
 * JDK 25 fires scope deadlines through, which the structured endpoints survive thanks to the backstop.
 */
class CompletableFutureBaselineTest {

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

    /** The common pool is the JVM's, shared with every test before this one: start each test with it idle. */
    @BeforeEach
    void commonPoolIsIdle() {
        if (!ForkJoinPool.commonPool().awaitQuiescence(20, TimeUnit.SECONDS)) {
            StringBuilder stacks = new StringBuilder(ForkJoinPool.commonPool().toString());
            Thread.getAllStackTraces().forEach((t, frames) -> {
                if (t.getName().startsWith("ForkJoinPool.commonPool")) {
                    stacks.append('\n').append(t).append(java.util.Arrays.toString(frames));
                }
            });
            throw new AssertionError("the common pool stayed busy: " + stacks);
        }
    }

    @AfterEach
    void orphansEndEventually() {
        await().atMost(Duration.ofSeconds(20)).until(() -> gate.upstreams().calls().inFlight() == 0);
    }

    private static CallLog tracker() {
        return gate.upstreams().calls();
    }

    @Test
    void aggregateCfAnswersFastButTheSiblingRunsOnAsAnOrphan() {
        long t0 = System.nanoTime();
        HttpResponse<String> r = client.get("/aggregate-cf?fail=file&delay=file:50ms&delay=db:3s&timeout=10s");
        long answeredAt = System.nanoTime();
        assertEquals(502, r.statusCode(), r.body());
        assertEquals(Map.of("db", "orphaned", "file", "failed"), states(TestClient.json(r)));
        assertEquals(1, tracker().inFlight(UpstreamId.of("db")), "db is still running after the 502 went out");

        await().atMost(Duration.ofSeconds(30)).until(() -> tracker().inFlight(UpstreamId.of("db")) == 0);
        CallRecord db = Aggregations.call(tracker(), r, "db");
        assertInstanceOf(Outcome.Success.class, db.outcome(), "nothing interrupted it");
        assertTrue(db.duration().toMillis() >= 3_000, "it slept its full 3 s: " + db.duration().toMillis());
        assertTrue(db.endNanos() > answeredAt, "it ended after the response arrived");
        assertTrue((answeredAt - t0) / 1_000_000 < 2_000, "the answer itself came long before db's 3 s");
    }

    /**
     * On the common pool the running part is orphaned. The other part either ran (more than one
     * pool worker) or was still queued behind it, and then {@code cancel(true)} kept it from ever
     * starting: "cancelled", and no call is recorded for it.
     */
    @Test
    void aggregateOldOrphansTooOnTheCommonPool() {
        HttpResponse<String> r = client.get("/aggregate-old?timeout=100ms&delay=file:20ms");
        long answeredAt = System.nanoTime();
        assertEquals(504, r.statusCode(), r.body());
        Map<String, String> states = states(TestClient.json(r));
        assertEquals("orphaned", states.get("db"), r.body());
        assertTrue(states.get("file").equals("success") || states.get("file").equals("cancelled"), r.body());

        String id = r.headers().firstValue("X-Request-Id").orElseThrow();
        int expectedCalls = states.get("file").equals("success") ? 2 : 1;
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(expectedCalls, tracker().callsOf(id).size(),
                "recorded " + tracker().callsOf(id) + ", common pool " + ForkJoinPool.commonPool()));
        CallRecord db = Aggregations.call(tracker(), r, "db");
        assertInstanceOf(Outcome.Success.class, db.outcome());
        assertTrue(db.endNanos() > answeredAt, "db ended after the response arrived");
    }

    @Test
    void aCfDeadlineAnswersOnTimeAndOrphansTheLatePart() {
        HttpResponse<String> r = client.get("/aggregate-cf?timeout=100ms");
        assertEquals(504, r.statusCode(), r.body());
        assertEquals(Map.of("db", "orphaned", "file", "success"), states(TestClient.json(r)));
    }

    @Test
    void structuredDeadlinesHoldWhileAggregateOldBlocksTheCommonPool() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> old = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            old.add(Background.supply(() -> client.get("/aggregate-old?delay=file:2s&timeout=20s")));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> tracker().inFlight() >= 1);
        HttpResponse<String> r = client.get("/aggregate?timeout=100ms&delay=db:5s");
        assertEquals(504, r.statusCode());
        assertTrue(old.stream().anyMatch(f -> !f.isDone()),
                "the 100 ms deadline answered while /aggregate-old still blocked the common pool");
        long slowest = 0;
        for (CompletableFuture<HttpResponse<String>> f : old) {
            slowest = Math.max(slowest, (Long) TestClient.json(f.get(30, TimeUnit.SECONDS)).get("durationMs"));
        }
        assertTrue(slowest >= 4_000, "the common pool really was blocked: the slowest /aggregate-old took " + slowest + " ms");
    }
}
