package io.loomgate.api;

import static io.loomgate.testing.Aggregations.part;
import static io.loomgate.testing.Aggregations.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.core.call.Outcome;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.testing.Aggregations;
import io.loomgate.testing.BothModes;
import io.loomgate.testing.TestClient;
import io.loomgate.upstream.CallLog;
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
        CallRecord call(String s) {
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
        Answer a = get(mode, "/aggregate?fail=file&delay=file:50ms&delay=db:60s&timeout=30s");
        assertEquals(502, a.response().statusCode());
        assertEquals("failed: file", a.body().get("error"));
        assertEquals(Map.of("db", "cancelled", "file", "failed"), states(a.body()));
        assertEquals("file: failed on request (?fail=file)", part(a.body(), "file").get("error"));
        CallRecord db = a.call("db");
        assertEquals(Outcome.CANCELLED, db.outcome(), "db saw itself interrupted before the deadline (a sleep that ended would be a success)");
        assertInstanceOf(Outcome.Failed.class, a.call("file").outcome());
        assertTrue(db.endNanos() >= a.call("file").endNanos(), "db stopped after file failed, not before");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theFirstSuccessCancelsTheLosers(String mode) {
        Answer a = get(mode, "/first-success?delay=cache-1:60s&delay=database:60s&timeout=30s");
        assertEquals(200, a.response().statusCode());
        CallRecord winner = a.call("cache-2");
        assertInstanceOf(Outcome.Success.class, winner.outcome());
        for (String loser : List.of("cache-1", "database")) {
            CallRecord c = a.call(loser);
            assertEquals(Outcome.CANCELLED, c.outcome(), loser + " was interrupted: its 60 s sleep did not end");
            assertTrue(c.endNanos() >= winner.endNanos(), loser + " stopped after the winner, not before");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aDeadlineKeepsPartialResultsAndStopsTheRest(String mode) {
        Answer a = get(mode, "/aggregate?timeout=100ms&delay=db:60s");
        assertEquals(504, a.response().statusCode());
        assertEquals(Map.of("db", "timeout", "file", "success"), states(a.body()));
        assertEquals(10_000L, ((Map<?, ?>) part(a.body(), "file").get("value")).get("lines"));
        assertEquals("deadline of 100ms passed; unfinished: db", a.body().get("error"));
        CallRecord db = a.call("db");
        assertEquals(Outcome.TIMED_OUT, db.outcome(), "db saw itself interrupted at the deadline (a sleep that ended would be a success)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void aFastFailureBeatsASlowPartByFar(String mode) {
        Answer a = get(mode, "/multi-aggregate?fail=cache&delay=cache:20ms&delay=db:60s&timeout=30s");
        assertEquals(502, a.response().statusCode());
        assertEquals("cancelled", states(a.body()).get("db"), "answered by the failure, not at the deadline");
        assertEquals(Outcome.CANCELLED, a.call("db").outcome());
        assertTrue(a.elapsedMs() < 30_000, "answered after " + a.elapsedMs() + " ms, before the 30 s deadline and db's 60 s");
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
        CallRecord compute = a.call("compute");
        // Timed out in the call log: the computation threw at the interrupt (one that ran to its end
        // would be a success there, whatever the answer said).
        assertEquals(Outcome.TIMED_OUT, compute.outcome());
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theAnswerComesAtTheDeadlineNotWhenTheSlowPartWouldEnd(String mode) {
        Answer a = get(mode, "/aggregate?timeout=100ms&delay=db:60s");
        assertEquals(504, a.response().statusCode());
        assertTrue(a.elapsedMs() >= 100, "not before the deadline: " + a.elapsedMs() + " ms");
        assertTrue(a.elapsedMs() < 30_000, "long before db's 60 s: " + a.elapsedMs() + " ms");
    }
}
