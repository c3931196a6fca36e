package io.loomgate.demo;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.core.fanout.FanOutResult;
import io.loomgate.core.fanout.StopWhen;
import io.loomgate.observe.event.Events;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The baseline, observed: it answers fast but cannot stop what it started. */
class CompletableFutureFanOutTest {

    private static final UpstreamId DB = UpstreamId.of("db");
    private static final UpstreamId FILE = UpstreamId.of("file");

    private final Executor virtualPerTask = task -> Thread.ofVirtual().start(task);
    private final Map<UpstreamId, Duration> orphanWork = new ConcurrentHashMap<>();
    private final Events listener = new Events() {
        @Override
        public void orphanEnded(UpstreamId service, Duration workAfterResponse) {
            orphanWork.put(service, workAfterResponse);
        }
    };

    private FanOutResult run(List<FanOut.Part> parts, Duration deadline, Executor executor) throws InterruptedException {
        FanOut engine = new CompletableFutureFanOut(executor, "test", listener);
        return RequestContext.callWith(RequestContext.of("r1", "/test", deadline),
                () -> engine.run(parts, StopWhen.FIRST_FAILURE));
    }

    private static FanOut.Part sleeper(UpstreamId s, long ms, boolean fail, AtomicBoolean interrupted) {
        return new FanOut.Part(s, () -> {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            if (fail) {
                throw new UpstreamFailure(s, "boom");
            }
            return Value.text(s.value());
        });
    }

    @Test
    void afterAFailureTheSiblingRunsToItsNaturalEnd() throws Exception {
        AtomicBoolean dbInterrupted = new AtomicBoolean();
        long t0 = System.nanoTime();
        FanOutResult r = run(
                List.of(sleeper(DB, 3_000, false, dbInterrupted), sleeper(FILE, 50, true, new AtomicBoolean())),
                Duration.ofSeconds(10), virtualPerTask);
        long answeredMs = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(orphanWork.containsKey(DB), "fail-fast answered before db's 3 s were over");
        assertEquals(Outcome.ORPHANED, r.parts().get(0).outcome());
        assertEquals(new Outcome.Failed("file: boom"), r.parts().get(1).outcome());

        await().atMost(Duration.ofSeconds(60)).until(() -> orphanWork.containsKey(DB));
        long endedMs = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(dbInterrupted.get(), "cancel(true) on a CompletableFuture interrupts nothing");
        assertTrue(endedMs >= 3_000, "the orphan ran to its natural end, at " + endedMs + " ms");
        Duration after = orphanWork.get(DB);
        assertTrue(after.toMillis() >= 3_000 - answeredMs, "it worked " + after + " after the answer");
    }

    @Test
    void aDeadlineAnswersOnTimeAndOrphansTheLatePart() throws Exception {
        FanOutResult r = run(
                List.of(sleeper(DB, 1_000, false, new AtomicBoolean()), sleeper(FILE, 10, false, new AtomicBoolean())),
                Duration.ofMillis(100), virtualPerTask);
        assertTrue(r.deadlineHit());
        assertEquals(Outcome.ORPHANED, r.parts().get(0).outcome());
        assertInstanceOf(Outcome.Success.class, r.parts().get(1).outcome());
        await().atMost(Duration.ofSeconds(30)).until(() -> orphanWork.containsKey(DB));
    }

    /** One worker, busy past the deadline: the part queued behind it is cancelled before it starts, and never runs. */
    @Test
    void aPartStillQueuedWhenTheAnswerIsDecidedNeverRuns() throws Exception {
        AtomicBoolean queuedRan = new AtomicBoolean();
        FanOut.Part queued = new FanOut.Part(FILE, () -> {
            queuedRan.set(true);
            return Value.text("late");
        });
        try (ExecutorService oneWorker = Executors.newSingleThreadExecutor()) {
            FanOutResult r = run(List.of(sleeper(DB, 300, false, new AtomicBoolean()), queued),
                    Duration.ofMillis(100), oneWorker);
            assertTrue(r.deadlineHit());
            assertEquals(Outcome.ORPHANED, r.parts().get(0).outcome());
            assertEquals(Outcome.CANCELLED, r.parts().get(1).outcome(), "a part that never started is not an orphan");
            assertEquals(Duration.ZERO, r.parts().get(1).duration());
            await().atMost(Duration.ofSeconds(30)).until(() -> orphanWork.containsKey(DB));
        }
        assertFalse(queuedRan.get(), "cancel(true) kept the queued task from ever starting");
        assertFalse(orphanWork.containsKey(FILE));
    }

    @Test
    void whenEverythingFinishesNothingIsOrphaned() throws Exception {
        FanOutResult r = run(
                List.of(sleeper(DB, 20, false, new AtomicBoolean()), sleeper(FILE, 10, false, new AtomicBoolean())),
                Duration.ofSeconds(5), virtualPerTask);
        assertFalse(r.deadlineHit());
        r.parts().forEach(p -> assertInstanceOf(Outcome.Success.class, p.outcome()));
        Thread.sleep(50);
        assertEquals(Map.of(), orphanWork);
    }
}
