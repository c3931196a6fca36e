package io.loomgate.api;

import static io.loomgate.testing.Aggregations.part;
import static io.loomgate.testing.Aggregations.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.upstream.CallLog;
import io.loomgate.call.Outcome;
import io.loomgate.testing.Aggregations;
import io.loomgate.testing.BothModes;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cancellation, observed where it happens: each service records when its call started and ended and
 * whether it was interrupted. The JSON says "cancelled"; these tests check that the sleep really
 * ended early, and that no call is still running once the response is in.
 */
class CancellationTest {

    private static BothModes gates;

    @BeforeAll
    static void start() throws Exception {
        gates = BothModes.start();
    }

    @AfterAll
    static void stop() {
        gates.close();
    }

    private record Answer(HttpResponse<String> response, Map<String, Object> body, long elapsedMs, CallLog tracker) {
        CallLog.CallRecord call(String s) {
            return Aggregations.call(tracker, response, s);
        }
    }

    private static Answer get(String mode, String pathAndQuery) {
        Loomgate gate = gates.gate(mode);
        try (TestClient client = new TestClient(gate.baseUri())) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = client.get(pathAndQuery);
            long elapsed = (System.nanoTime() - t0) / 1_000_000;
            CallLog tracker = gate.upstreams().calls();
            assertEquals(0, tracker.inFlight(), "a call outlived its request: " + r.body());
            return new Answer(r, TestClient.json(r), elapsed, tracker);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theFirstFailureCancelsTheSiblingAtOnce(String mode) {
        Answer a = get(mode, "/aggregate?fail=file&delay=file:50ms");
        assertEquals(502, a.response().statusCode());
        assertEquals("failed: file", a.body().get("error"));
        assertEquals(Map.of("db", "cancelled", "file", "failed"), states(a.body()));
        assertEquals("file: failed on request (?fail=file)", part(a.body(), "file").get("error"));
        CallLog.CallRecord db = a.call("db");
        assertEquals(Outcome.CANCELLED, db.outcome(), "db saw itself interrupted before the deadline");
        assertTrue(db.duration().toMillis() < 200, "db's 300 ms sleep ended after " + db.duration().toMillis() + " ms");
        assertTrue(db.duration().toMillis() >= 40, db.duration().toString());
        assertInstanceOf(Outcome.Failed.class, a.call("file").outcome());
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theFirstSuccessCancelsTheLosers(String mode) {
        Answer a = get(mode, "/first-success");
        assertEquals(200, a.response().statusCode());
        assertInstanceOf(Outcome.Success.class, a.call("cache-2").outcome());
        for (String loser : List.of("cache-1", "database")) {
            CallLog.CallRecord c = a.call(loser);
            assertEquals(Outcome.CANCELLED, c.outcome(), loser);
            assertTrue(c.duration().toMillis() < 450, loser + " stopped after " + c.duration().toMillis() + " ms");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aDeadlineKeepsPartialResultsAndStopsTheRest(String mode) {
        Answer a = get(mode, "/aggregate?timeout=100ms");
        assertEquals(504, a.response().statusCode());
        assertEquals(Map.of("db", "timeout", "file", "success"), states(a.body()));
        assertEquals(10_000L, ((Map<?, ?>) part(a.body(), "file").get("value")).get("lines"));
        assertEquals("deadline of 100ms passed; unfinished: db", a.body().get("error"));
        CallLog.CallRecord db = a.call("db");
        assertEquals(Outcome.TIMED_OUT, db.outcome(), "db saw itself interrupted at the deadline");
        assertTrue(db.duration().toMillis() < 250, "db stopped after " + db.duration().toMillis() + " ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aFastFailureBeatsASlowPartByFar(String mode) {
        Answer a = get(mode, "/multi-aggregate?fail=cache&delay=cache:20ms&delay=db:3s");
        assertEquals(502, a.response().statusCode());
        assertTrue(a.elapsedMs() < 1_000, "answered after " + a.elapsedMs() + " ms");
        assertEquals("cancelled", states(a.body()).get("db"));
        assertEquals(Outcome.CANCELLED, a.call("db").outcome());
        assertTrue(a.call("db").duration().toMillis() < 1_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aLatePartGetsItsFallbackAndIsStopped(String mode) {
        Answer a = get(mode, "/aggregate-with-fallback?timeout=100ms");
        assertEquals(200, a.response().statusCode());
        assertEquals("false", a.response().headers().firstValue("X-Loomgate-Completed").orElseThrow());
        assertEquals("degraded", a.body().get("status"));
        assertEquals(false, a.body().get("completed"));
        Map<String, Object> db = part(a.body(), "db");
        assertEquals("fallback", db.get("state"));
        assertEquals("DB fallback: cached result", db.get("value"));
        assertEquals("deadline of 100ms passed", db.get("reason"));
        assertEquals(Outcome.TIMED_OUT, a.call("db").outcome());
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aFailedPartGetsItsFallback(String mode) {
        Answer a = get(mode, "/aggregate-with-fallback?fail=file-flaky");
        assertEquals(200, a.response().statusCode());
        assertEquals(Map.of("db", "success", "file-flaky", "fallback"), states(a.body()));
        assertEquals("file fallback: no data", part(a.body(), "file-flaky").get("value"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void whenEveryContenderFailsEveryFailureIsReported(String mode) {
        Answer a = get(mode, "/first-success?fail=cache-1,cache-2,database");
        assertEquals(502, a.response().statusCode());
        assertEquals("all 3 failed: cache-1, cache-2, database", a.body().get("error"));
        for (String s : List.of("cache-1", "cache-2", "database")) {
            assertEquals("failed", part(a.body(), s).get("state"));
            assertEquals(s + ": failed on request (?fail=" + s + ")", part(a.body(), s).get("error"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aDeadlineStopsCpuWorkToo(String mode) {
        Answer a = get(mode, "/compute?n=10000000&timeout=100ms");
        assertEquals(504, a.response().statusCode());
        CallLog.CallRecord compute = a.call("compute");
        assertEquals(Outcome.TIMED_OUT, compute.outcome());
        assertTrue(compute.duration().toMillis() < 600, "compute stopped after " + compute.duration().toMillis() + " ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theResponseArrivesWithinTheDeadlinePlus50ms(String mode) {
        get(mode, "/aggregate?timeout=100ms");  // warm-up
        long[] elapsed = new long[5];
        for (int i = 0; i < elapsed.length; i++) {
            Answer a = get(mode, "/aggregate?timeout=100ms");
            assertEquals(504, a.response().statusCode());
            elapsed[i] = a.elapsedMs();
            assertTrue(elapsed[i] < 400, "one answer took " + elapsed[i] + " ms");
        }
        java.util.Arrays.sort(elapsed);
        assertTrue(elapsed[2] <= 150, "median " + elapsed[2] + " ms for a 100 ms deadline: " + java.util.Arrays.toString(elapsed));
    }
}
