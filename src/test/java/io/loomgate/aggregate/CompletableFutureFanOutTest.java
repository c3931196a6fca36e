package io.loomgate.aggregate;

import static io.loomgate.service.ServiceName.DB;
import static io.loomgate.service.ServiceName.FILE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.service.ServiceFailure;
import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
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

    private final Executor virtualPerTask = task -> Thread.ofVirtual().start(task);
    private final Map<ServiceName, Duration> orphanWork = new ConcurrentHashMap<>();

    private static StructuredFanOut.Part sleeper(ServiceName s, long ms, boolean fail, AtomicBoolean interrupted) {
        return new StructuredFanOut.Part(s, () -> {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            if (fail) {
                throw new ServiceFailure(s, "boom");
            }
            return new ServiceValue.Text(s.wire());
        });
    }

    @Test
    void afterAFailureTheSiblingRunsToItsNaturalEnd() throws Exception {
        AtomicBoolean dbInterrupted = new AtomicBoolean();
        long t0 = System.nanoTime();
        FanOutResult r = CompletableFutureFanOut.run(
                List.of(sleeper(DB, 400, false, dbInterrupted), sleeper(FILE, 50, true, new AtomicBoolean())),
                Duration.ofSeconds(5), Duration.ofSeconds(5), virtualPerTask, orphanWork::put);
        long answeredMs = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(answeredMs < 300, "fail-fast answered after " + answeredMs + " ms");
        assertInstanceOf(Completion.Unfinished.class, r.completions().get(0).result());
        assertInstanceOf(Completion.Threw.class, r.completions().get(1).result());

        await().atMost(Duration.ofSeconds(5)).until(() -> orphanWork.containsKey(DB));
        long endedMs = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(dbInterrupted.get(), "cancel(true) on a CompletableFuture interrupts nothing");
        assertTrue(endedMs >= 390, "the orphan ran to its natural end, at " + endedMs + " ms");
        Duration after = orphanWork.get(DB);
        assertTrue(after.toMillis() >= 250 && after.toMillis() < 450, "it worked " + after + " after the answer");
    }

    @Test
    void aDeadlineAnswersOnTimeAndOrphansTheLatePart() throws Exception {
        FanOutResult r = CompletableFutureFanOut.run(
                List.of(sleeper(DB, 300, false, new AtomicBoolean()), sleeper(FILE, 10, false, new AtomicBoolean())),
                Duration.ofMillis(100), Duration.ofMillis(100), virtualPerTask, orphanWork::put);
        assertTrue(r.deadlineHit());
        assertInstanceOf(Completion.Unfinished.class, r.completions().get(0).result());
        assertInstanceOf(Completion.Returned.class, r.completions().get(1).result());
        await().atMost(Duration.ofSeconds(5)).until(() -> orphanWork.containsKey(DB));
    }

    /** One worker, busy past the deadline: the part queued behind it is cancelled before it starts, and never runs. */
    @Test
    void aPartStillQueuedWhenTheAnswerIsDecidedNeverRuns() throws Exception {
        AtomicBoolean queuedRan = new AtomicBoolean();
        StructuredFanOut.Part queued = new StructuredFanOut.Part(FILE, () -> {
            queuedRan.set(true);
            return new ServiceValue.Text("late");
        });
        try (ExecutorService oneWorker = Executors.newSingleThreadExecutor()) {
            FanOutResult r = CompletableFutureFanOut.run(List.of(sleeper(DB, 300, false, new AtomicBoolean()), queued),
                    Duration.ofMillis(100), Duration.ofMillis(100), oneWorker, orphanWork::put);
            assertTrue(r.deadlineHit());
            assertInstanceOf(Completion.Unfinished.class, r.completions().get(0).result());
            assertInstanceOf(Completion.NeverStarted.class, r.completions().get(1).result());
            await().atMost(Duration.ofSeconds(5)).until(() -> orphanWork.containsKey(DB));
        }
        assertFalse(queuedRan.get(), "cancel(true) kept the queued task from ever starting");
        assertFalse(orphanWork.containsKey(FILE));
    }

    @Test
    void whenEverythingFinishesNothingIsOrphaned() throws Exception {
        FanOutResult r = CompletableFutureFanOut.run(
                List.of(sleeper(DB, 20, false, new AtomicBoolean()), sleeper(FILE, 10, false, new AtomicBoolean())),
                Duration.ofSeconds(5), Duration.ofSeconds(5), virtualPerTask, orphanWork::put);
        assertFalse(r.deadlineHit());
        r.completions().forEach(c -> assertInstanceOf(Completion.Returned.class, c.result()));
        Thread.sleep(50);
        assertEquals(Map.of(), orphanWork);
    }
}
