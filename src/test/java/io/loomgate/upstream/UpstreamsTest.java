package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.Overrides;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.config.Latency;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registry and its decorators, on plain in-process upstreams: no sockets, no simulated services. */
class UpstreamsTest {

    private static final UpstreamId A = UpstreamId.of("a");
    private static final Value V = Value.text("v");

    private static Value call(Upstreams u, UpstreamId id, String requestId, Overrides overrides, Duration timeout)
            throws Exception {
        RequestContext ctx = RequestContext.of(requestId, "/t", timeout, QueryParams.parse(null), overrides);
        return RequestContext.callWith(ctx, () -> u.get(id).call());
    }

    private static Upstreams one(Upstream upstream, Faults faults, OptionalLong seed) {
        return Upstreams.builder(seed).add(A, upstream, faults).build();
    }

    @Test
    void aForcedFailureSpendsTheLatencyFirstAndIsRecordedOnce() {
        Upstreams u = one(() -> V, new Faults(Duration.ofSeconds(120), 0), OptionalLong.empty());
        Overrides fail = new Overrides(Map.of(A, Duration.ofMillis(80)), Set.of(A));
        UpstreamFailure f = assertThrows(UpstreamFailure.class, () -> call(u, A, "fail-me", fail, Duration.ofSeconds(240)));
        assertEquals("a: failed on request (?fail=a)", f.getMessage());
        var calls = u.calls().callsOf("fail-me");
        assertEquals(1, calls.size());
        assertEquals(new Outcome.Failed("a: failed on request (?fail=a)"), calls.getFirst().outcome());
        long ms = calls.getFirst().duration().toMillis();
        assertTrue(ms >= 80 && ms < 60_000, "the request's 80 ms replaced the declared 2 min: " + ms + " ms");
    }

    @Test
    void theDeclaredLatencyIsInjectedIntoAnyUpstream() throws Exception {
        Upstreams u = one(() -> V, new Faults(Duration.ofMillis(120), 0), OptionalLong.empty());
        assertEquals(V, call(u, A, "slow", Overrides.NONE, Duration.ofSeconds(5)));
        long ms = u.calls().callsOf("slow").getFirst().duration().toMillis();
        assertTrue(ms >= 115, "took " + ms + " ms");
        Outcome kept = u.calls().callsOf("slow").getFirst().outcome();
        assertTrue(kept instanceof Outcome.Success, "recorded as a success: " + kept);
        assertTrue(((Outcome.Success) kept).value() != V, "but without the value it gave, which the call log never holds");
    }

    @Test
    void aLatencyWithATailMakesSomeCallsStragglers() throws Exception {
        Latency tailed = Latency.withTail(Duration.ZERO, "p70", Duration.ofSeconds(2));
        Upstreams u = one(() -> V, new Faults(tailed, 0), OptionalLong.of(3));
        List<Thread> calls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = "tail-" + i;
            calls.add(Thread.ofVirtual().start(() -> {
                try {
                    call(u, A, id, Overrides.NONE, Duration.ofSeconds(10));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }));
        }
        for (Thread t : calls) {
            t.join(Duration.ofSeconds(20));
        }
        int slow = 0;
        for (int i = 0; i < 40; i++) {
            long ms = u.calls().callsOf("tail-" + i).getFirst().duration().toMillis();
            slow += ms >= 2_000 ? 1 : 0;   // a tail call sleeps its 2 s; a typical one does not sleep
        }
        assertTrue(slow >= 4 && slow <= 24, "about 30% of 40 calls fall in the tail: " + slow);
    }

    @Test
    void aSeedMakesRandomFailuresReproducible() throws Exception {
        List<Boolean> first = outcomes(7);
        assertEquals(first, outcomes(7));
        assertTrue(first.contains(true) && first.contains(false), first.toString());
    }

    private static List<Boolean> outcomes(long seed) throws Exception {
        Upstreams u = one(() -> V, new Faults(Duration.ZERO, 0.5), OptionalLong.of(seed));
        List<Boolean> failed = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            try {
                call(u, A, "seeded", Overrides.NONE, Duration.ofSeconds(5));
                failed.add(false);
            } catch (UpstreamFailure e) {
                assertEquals("a: random failure (rate 0.5)", e.getMessage());
                failed.add(true);
            }
        }
        return failed;
    }

    @Test
    void callsInFlightAreCountedWhileTheyRun() throws Exception {
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        Upstreams u = one(() -> {
            entered.countDown();
            release.await();
            return V;
        }, Faults.NONE, OptionalLong.empty());
        List<Thread> threads = List.of(
                Thread.ofVirtual().start(() -> quietly(u, "r1")), Thread.ofVirtual().start(() -> quietly(u, "r2")));
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        assertEquals(2, u.calls().inFlight(A));
        assertEquals(2, u.calls().inFlight());
        release.countDown();
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(60));
        }
        assertEquals(0, u.calls().inFlight());
        assertEquals(1, u.calls().callsOf("r1").size());
    }

    private static void quietly(Upstreams u, String requestId) {
        try {
            call(u, A, requestId, Overrides.NONE, Duration.ofSeconds(5));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anInterruptAtTheDeadlineIsATimeoutAndBeforeItACancellation() throws Exception {
        Upstreams u = one(() -> {
            Thread.sleep(5_000);
            return V;
        }, Faults.NONE, OptionalLong.empty());
        Thread early = Thread.ofVirtual().start(() -> expectInterrupt(u, "early", Duration.ofSeconds(5)));
        Thread late = Thread.ofVirtual().start(() -> expectInterrupt(u, "late", Duration.ofNanos(1)));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> u.calls().inFlight(A) == 2);
        early.interrupt();
        late.interrupt();
        early.join(Duration.ofSeconds(60));
        late.join(Duration.ofSeconds(60));
        assertEquals(Outcome.CANCELLED, u.calls().callsOf("early").getFirst().outcome());
        assertEquals(Outcome.TIMED_OUT, u.calls().callsOf("late").getFirst().outcome());
    }

    private static void expectInterrupt(Upstreams u, String requestId, Duration timeout) {
        assertThrows(InterruptedException.class, () -> call(u, A, requestId, Overrides.NONE, timeout));
    }

    @Test
    void unknownIdsAndDuplicatesAreRefused() {
        Upstreams u = one(() -> V, Faults.NONE, OptionalLong.empty());
        assertInstanceOf(NoSuchElementException.class, assertThrows(RuntimeException.class, () -> u.get(UpstreamId.of("b"))));
        assertThrows(IllegalArgumentException.class,
                () -> Upstreams.builder(OptionalLong.empty()).add(A, () -> V, Faults.NONE).add(A, () -> V, Faults.NONE));
        assertEquals(List.of(A), u.ids());
    }
}
