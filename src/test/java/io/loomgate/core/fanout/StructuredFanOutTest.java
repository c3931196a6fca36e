package io.loomgate.core.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.Value;
import io.loomgate.config.ThreadMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The adapter, with plain tasks that record what happened to them: cancellation and deadlines are
 * observed in the tasks themselves, not inferred from a result.
 */
class StructuredFanOutTest {

    private static final Duration LONG = Duration.ofSeconds(5);
    private static final UpstreamId DB = UpstreamId.of("db");
    private static final UpstreamId FILE = UpstreamId.of("file");
    private static final UpstreamId CACHE = UpstreamId.of("cache");

    /** What each task saw: whether it was interrupted, after how long, on which thread. */
    private final Map<UpstreamId, String> seen = new ConcurrentHashMap<>();
    private final Map<UpstreamId, Long> stoppedAfterMs = new ConcurrentHashMap<>();
    private final Map<UpstreamId, Long> startedAfterMs = new ConcurrentHashMap<>();
    private final long start = System.nanoTime();

    private FanOut.Part sleeper(UpstreamId s, long ms, boolean fail) {
        return new FanOut.Part(s, () -> {
            Thread t = Thread.currentThread();
            startedAfterMs.put(s, (System.nanoTime() - start) / 1_000_000);
            seen.put(s, (t.isVirtual() ? "virtual " : "platform ") + t.getName());
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                stoppedAfterMs.put(s, (System.nanoTime() - start) / 1_000_000);
                throw e;
            }
            if (fail) {
                throw new UpstreamFailure(s, "boom");
            }
            return Value.text(s.value());
        });
    }

    private static FanOutResult run(List<FanOut.Part> parts, StopWhen stop, Duration deadline, ThreadMode mode)
            throws InterruptedException {
        RequestContext ctx = RequestContext.of("r1", "/test", deadline);
        return RequestContext.callWith(ctx, () -> FanOut.structured(mode, new LongAdder()).run(parts, stop));
    }

    @Test
    void theFirstFailureInterruptsTheSiblingAtOnce() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 3_000, false), sleeper(FILE, 50, true)),
                StopWhen.FIRST_FAILURE, LONG, ThreadMode.VIRTUAL);
        assertEquals(Outcome.CANCELLED, r.parts().get(0).outcome(), "stopped by its sibling's failure");
        assertEquals(new Outcome.Failed("file: boom"), r.parts().get(1).outcome());
        assertFalse(r.deadlineHit());
        assertTrue(stoppedAfterMs.containsKey(DB), "the 3 s sibling was interrupted, not left to finish");
    }

    @Test
    void theFirstSuccessInterruptsTheLosers() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 500, false), sleeper(CACHE, 100, false), sleeper(FILE, 800, false)),
                StopWhen.FIRST_SUCCESS, LONG, ThreadMode.VIRTUAL);
        assertInstanceOf(Outcome.Success.class, r.parts().get(1).outcome());
        assertEquals(Outcome.CANCELLED, r.parts().get(0).outcome());
        assertEquals(Outcome.CANCELLED, r.parts().get(2).outcome());
        assertTrue(stoppedAfterMs.containsKey(DB), "the 500 ms loser was interrupted");
        assertTrue(stoppedAfterMs.containsKey(FILE), "the 800 ms loser was interrupted");
        assertTrue(stoppedAfterMs.get(DB) >= startedAfterMs.get(CACHE) + 100, "after the winner's 100 ms, not before");
    }

    /** {@code part}, started only {@code afterMs} later (or when a sibling fails), if {@code admit} says so. */
    private static FanOut.Part delayed(FanOut.Part part, long afterMs, boolean admit) {
        return new FanOut.Part(part.upstream(), part.task(), Duration.ofMillis(afterMs), () -> admit);
    }

    @Test
    void aDelayedPartStartsAfterItsDelayAndItsWinInterruptsThePrimary() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 2_000, false), delayed(sleeper(FILE, 10, false), 100, true)),
                StopWhen.FIRST_SUCCESS, LONG, ThreadMode.VIRTUAL);
        // Measured from before the run began: the delay counts from the fork, later still.
        assertTrue(startedAfterMs.get(FILE) >= 100, "the backup started " + startedAfterMs.get(FILE) + " ms in; its delay is 100 ms");
        assertInstanceOf(Outcome.Success.class, r.parts().get(1).outcome());
        assertTrue(r.parts().get(1).start().orElseThrow().toMillis() >= 100, r.parts().get(1).toString());
        assertEquals(Outcome.CANCELLED, r.parts().get(0).outcome());
        assertTrue(stoppedAfterMs.containsKey(DB), "the 2 s primary was interrupted, not left to finish");
        assertTrue(stoppedAfterMs.get(DB) >= startedAfterMs.get(FILE) + 10, "by the backup's win, after its 10 ms");
    }

    @Test
    void aDelayedPartNeverStartsWhenTheAnswerComesFirst() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 20, false), delayed(sleeper(FILE, 10, false), 120_000, true)),
                StopWhen.FIRST_SUCCESS, Duration.ofSeconds(240), ThreadMode.VIRTUAL);
        assertFalse(seen.containsKey(FILE), "the backup's task never ran");
        assertFalse(r.parts().get(1).started());
        assertEquals(Duration.ZERO, r.parts().get(1).duration());
        assertFalse(r.deadlineHit());
        assertTrue(r.took().toSeconds() < 60, "the scope did not wait out the backup's 2 min delay: " + r.took());
    }

    @Test
    void aDelayedPartStartsAtOnceWhenASiblingFails() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 30, true), delayed(sleeper(FILE, 10, false), 120_000, true)),
                StopWhen.FIRST_SUCCESS, Duration.ofSeconds(240), ThreadMode.VIRTUAL);
        long began = startedAfterMs.get(FILE) - startedAfterMs.get(DB);
        assertTrue(began >= 30, "the backup started " + began + " ms after the primary, after it failed");
        assertTrue(began < 60_000, "when the primary failed, not after its 2 min delay: " + began + " ms");
        assertInstanceOf(Outcome.Success.class, r.parts().get(1).outcome());
    }

    @Test
    void aDelayedPartThatIsNotAdmittedNeverRuns() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 150, false), delayed(sleeper(FILE, 10, false), 20, false)),
                StopWhen.FIRST_SUCCESS, LONG, ThreadMode.VIRTUAL);
        assertFalse(seen.containsKey(FILE), "the backup's task never ran");
        assertFalse(r.parts().get(1).started());
        assertEquals(new Outcome.Failed("file: not sent"), r.parts().get(1).outcome());
        assertInstanceOf(Outcome.Success.class, r.parts().get(0).outcome(), "the primary still answers");
    }

    @Test
    void aDeadlineKeepsTheResultsThatHadArrived() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 3_000, false), sleeper(FILE, 10, false)),
                StopWhen.FIRST_FAILURE, Duration.ofMillis(150), ThreadMode.VIRTUAL);
        assertTrue(r.deadlineHit());
        assertEquals(new Outcome.Success(Value.text("file")), r.parts().get(1).outcome());
        assertEquals(Outcome.TIMED_OUT, r.parts().get(0).outcome(), "stopped by the deadline");
        assertTrue(stoppedAfterMs.get(DB) >= 150, "db stopped at " + stoppedAfterMs.get(DB) + " ms, not before the 150 ms deadline");
    }

    @Test
    void allDoneWaitsForEveryPartButNotForTheBackstop() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 100, true), sleeper(FILE, 200, false)),
                StopWhen.ALL_DONE, LONG, ThreadMode.VIRTUAL);
        assertInstanceOf(Outcome.Failed.class, r.parts().get(0).outcome());
        assertInstanceOf(Outcome.Success.class, r.parts().get(1).outcome());
        assertFalse(r.deadlineHit(), "returned when both were done, not at the 5 s deadline");
    }

    @Test
    void aQuorumStopsAtTheKthSuccessAndInterruptsTheRest() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 50, false), sleeper(CACHE, 100, false), sleeper(FILE, 3_000, false)),
                StopWhen.quorum(2), LONG, ThreadMode.VIRTUAL);
        assertEquals(List.of(Outcome.Kind.SUCCESS, Outcome.Kind.SUCCESS, Outcome.Kind.CANCELLED),
                r.parts().stream().map(p -> p.outcome().kind()).toList());
        assertTrue(stoppedAfterMs.containsKey(FILE), "the 3 s part was interrupted");
    }

    @Test
    void aQuorumStopsAsSoonAsItIsOutOfReach() throws Exception {
        FanOutResult r = run(List.of(sleeper(DB, 40, true), sleeper(CACHE, 80, true), sleeper(FILE, 3_000, false)),
                StopWhen.quorum(2), LONG, ThreadMode.VIRTUAL);
        assertEquals(Outcome.CANCELLED, r.parts().get(2).outcome());
        assertTrue(stoppedAfterMs.containsKey(FILE), "the 3 s part was interrupted once 2 of 3 failed");
    }

    @Test
    void subtasksRunOnThreadsOfTheServersModeNamedAfterTheirService() throws Exception {
        run(List.of(sleeper(DB, 1, false), sleeper(FILE, 1, false)), StopWhen.FIRST_FAILURE, LONG, ThreadMode.VIRTUAL);
        assertEquals("virtual db@r1", seen.get(DB));
        assertEquals("virtual file@r1", seen.get(FILE));
        seen.clear();
        run(List.of(sleeper(DB, 1, false), sleeper(FILE, 1, false)), StopWhen.FIRST_FAILURE, LONG, ThreadMode.PLATFORM);
        assertEquals("platform db@r1", seen.get(DB));
        assertEquals("platform file@r1", seen.get(FILE));
    }

    /** One part has no sibling to run beside: it runs on the caller's thread, with the same deadline. */
    @Test
    void aSinglePartRunsOnTheCallersThreadAndStillStopsAtItsDeadline() throws Exception {
        String caller = Thread.currentThread().getName();
        FanOutResult ok = run(List.of(sleeper(DB, 1, false)), StopWhen.FIRST_FAILURE, LONG, ThreadMode.PLATFORM);
        assertEquals("success", ok.parts().getFirst().outcome().state());
        assertTrue(seen.get(DB).endsWith(" " + caller), "ran on " + seen.get(DB) + ", the caller is " + caller);

        long t0 = System.nanoTime();
        FanOutResult late = run(List.of(sleeper(DB, 3_000, false)), StopWhen.FIRST_FAILURE, Duration.ofMillis(100),
                ThreadMode.VIRTUAL);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(late.deadlineHit());
        assertEquals("timeout", late.parts().getFirst().outcome().state());
        assertTrue(ms >= 100, "not before the 100 ms deadline: " + ms + " ms");
        assertTrue(stoppedAfterMs.containsKey(DB), "the 3 s sleep was interrupted by it");
        assertFalse(Thread.currentThread().isInterrupted(), "the deadline's interrupt does not leak to the caller");
        Thread.sleep(5);   // and nothing arrives later either: this sleep would throw
    }

    /** The deadline's interrupt lands in the fan-out or nowhere: never on what the thread does after it. */
    @Test
    void aDeadlineRacingTheEndOfTheWorkNeverLeavesAnInterruptBehind() throws Exception {
        for (int i = 0; i < 300; i++) {
            // The part ends at about the deadline, so the timer fires before, during or after the end.
            run(List.of(sleeper(DB, 2, false)), StopWhen.FIRST_FAILURE, Duration.ofMillis(2), ThreadMode.VIRTUAL);
            run(List.of(sleeper(DB, 2, false), sleeper(FILE, 2, false)), StopWhen.FIRST_FAILURE, Duration.ofMillis(2),
                    ThreadMode.VIRTUAL);
            assertFalse(Thread.currentThread().isInterrupted(), "round " + i);
        }
        Thread.sleep(10);
    }

    @Test
    void subtasksInheritTheRequestContext() throws Exception {
        RequestContext ctx = RequestContext.of("r9", "/test", Duration.ofSeconds(1));
        List<RequestContext> inherited = new ArrayList<>();
        FanOut.Part part = new FanOut.Part(DB, () -> {
            inherited.add(RequestContext.current());
            return Value.text("x");
        });
        RequestContext.callWith(ctx, () -> FanOut.structured(ThreadMode.VIRTUAL, new LongAdder())
                .run(List.of(part), StopWhen.FIRST_FAILURE));
        assertEquals(List.of(ctx), inherited);
    }

    /**
     * JDK 25 fires {@code withTimeout} through the common pool. With that pool blocked (as
     * /aggregate-old blocks it), such a deadline would fire seconds late; loomgate's own deadline
     * thread keeps it, for a single part and for a scope.
     */
    @Test
    void theDeadlineHoldsWhileTheCommonPoolIsBlocked() throws Exception {
        java.util.concurrent.CountDownLatch free = new java.util.concurrent.CountDownLatch(1);
        List<CompletableFuture<Void>> clog = new ArrayList<>();
        for (int i = 0; i < Math.max(4, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() * 2); i++) {
            clog.add(CompletableFuture.runAsync(() -> {
                try {
                    free.await(60, TimeUnit.SECONDS);   // held until the deadlines below have fired
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        try {
            for (List<FanOut.Part> parts : List.of(List.of(sleeper(DB, 30_000, false)),
                    List.of(sleeper(DB, 30_000, false), sleeper(FILE, 30_000, false)))) {
                FanOutResult r = run(parts, StopWhen.FIRST_FAILURE, Duration.ofMillis(100), ThreadMode.VIRTUAL);
                assertTrue(r.deadlineHit());
                assertTrue(clog.stream().noneMatch(CompletableFuture::isDone),
                        "the 100 ms deadline fired while the common pool was still blocked");
            }
        } finally {
            free.countDown();
            CompletableFuture.allOf(clog.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        }
    }
}
