package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The unstructured baseline, written the way a careful CompletableFuture user would: every part
 * with {@code supplyAsync}, fail-fast on the first failure, {@code orTimeout} for the deadline, and
 * {@code cancel(true)} on the rest once the answer is known. That last call changes nothing:
 * cancelling a CompletableFuture does not interrupt its task. A part still running when the answer
 * is decided is therefore orphaned: it runs to its natural end after the response has gone, and
 * {@link OrphanListener} hears how long it kept working.
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
                .orTimeout(deadline.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
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
     * One part's task and what became of it. Whether it finished before the answer or was orphaned
     * is settled by one compare-and-set, so it is counted exactly once either way.
     */
    private static final class Slot {
        private static final int RUNNING = 0;
        private static final int FINISHED = 1;
        private static final int ORPHANED = 2;

        private final StructuredFanOut.Part part;
        private final OrphanListener listener;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
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

        /** What the answer reports for this part; a part not finished yet becomes an orphan here. */
        Completion snapshot(long now) {
            orphanedAt = now;
            if (state.compareAndSet(RUNNING, ORPHANED)) {
                long from = began;
                return new Completion(part.service(), new Completion.Unfinished(),
                        from == 0 ? Duration.ZERO : Duration.ofNanos(now - from));
            }
            return new Completion(part.service(), result, Duration.ofNanos(ended - began));
        }
    }
}
