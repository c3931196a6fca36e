package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The unstructured baseline, written the way a careful CompletableFuture user would: every part
 * with {@code supplyAsync}, fail-fast on the first failure, {@code orTimeout} for the deadline, and
 * {@code cancel(true)} on the rest once the answer is known. That call stops a task still waiting
 * in its executor's queue (it will never start), but it interrupts nothing: a part already running
 * when the answer is decided is orphaned. It runs to its natural end after the response has gone,
 * and {@link OrphanListener} hears how long it kept working.
 */
final class CompletableFutureFanOut {

    /** Told when an orphaned part finally ends, and how long it ran after its response. */
    @FunctionalInterface
    interface OrphanListener {
        void orphanEnded(ServiceName service, Duration workAfterResponse);
    }

    private CompletableFutureFanOut() {
    }

    /**
     * @param deadline time left until the request's deadline
     * @param timeout  the deadline as the request asked for it, for messages
     */
    static FanOutResult run(List<StructuredFanOut.Part> parts, Duration deadline, Duration timeout, Executor executor,
                            OrphanListener listener) throws InterruptedException {
        long start = System.nanoTime();
        List<Slot> slots = new ArrayList<>(parts.size());
        List<CompletableFuture<ServiceValue>> futures = new ArrayList<>(parts.size());
        CompletableFuture<Object> firstFailure = new CompletableFuture<>();
        for (StructuredFanOut.Part part : parts) {
            Slot slot = new Slot(part, listener);
            slots.add(slot);
            CompletableFuture<ServiceValue> f = CompletableFuture.supplyAsync(slot::run, executor);
            f.whenComplete((value, error) -> {
                if (error != null) {
                    firstFailure.completeExceptionally(error);
                }
            });
            futures.add(f);
        }
        CompletableFuture<Object> decided = CompletableFuture
                .anyOf(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), firstFailure)
                .orTimeout(deadline.toNanos(), TimeUnit.NANOSECONDS);
        boolean deadlineHit = false;
        try {
            decided.get();
        } catch (ExecutionException e) {
            deadlineHit = e.getCause() instanceof TimeoutException;
        } finally {
            futures.forEach(f -> f.cancel(true));  // interrupts nothing; see the class comment
        }
        long decidedAt = System.nanoTime();
        List<Completion> completions = new ArrayList<>(slots.size());
        for (Slot slot : slots) {
            completions.add(slot.snapshot(decidedAt));
        }
        return new FanOutResult(completions, deadlineHit, timeout, Duration.ofNanos(decidedAt - start));
    }

    /**
     * One part's task and what became of it. Each transition is one compare-and-set, so a part is
     * counted exactly once: finished before the answer, orphaned (running at the answer), or
     * never started (still queued at the answer; it will not run).
     */
    private static final class Slot {
        private static final int PENDING = 0;
        private static final int RUNNING = 1;
        private static final int FINISHED = 2;
        private static final int ORPHANED = 3;
        private static final int SKIPPED = 4;

        private final StructuredFanOut.Part part;
        private final OrphanListener listener;
        private final AtomicInteger state = new AtomicInteger(PENDING);
        private volatile long began;
        private volatile long ended;
        private volatile long orphanedAt;
        private volatile Completion.Result result;

        Slot(StructuredFanOut.Part part, OrphanListener listener) {
            this.part = part;
            this.listener = listener;
        }

        ServiceValue run() {
            began = System.nanoTime();
            if (!state.compareAndSet(PENDING, RUNNING)) {
                throw new CancellationException("the answer was decided before this part started");
            }
            try {
                ServiceValue value = part.task().call();
                result = new Completion.Returned(value);
                return value;
            } catch (Exception e) {
                result = new Completion.Threw(e);
                throw new CompletionException(e);
            } finally {
                ended = System.nanoTime();
                if (!state.compareAndSet(RUNNING, FINISHED)) {
                    listener.orphanEnded(part.service(), Duration.ofNanos(ended - Math.max(began, orphanedAt)));
                }
            }
        }

        /** What the answer reports for this part; settles whether it is orphaned or never runs. */
        Completion snapshot(long now) {
            orphanedAt = now;
            if (state.compareAndSet(PENDING, SKIPPED)) {
                return new Completion(part.service(), new Completion.NeverStarted(), Duration.ZERO);
            }
            if (state.compareAndSet(RUNNING, ORPHANED)) {
                return new Completion(part.service(), new Completion.Unfinished(), Duration.ofNanos(now - began));
            }
            return new Completion(part.service(), result, Duration.ofNanos(ended - began));
        }
    }
}
