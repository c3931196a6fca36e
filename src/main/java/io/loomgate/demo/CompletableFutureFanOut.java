package io.loomgate.demo;

import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Value;
import io.loomgate.core.fanout.Failures;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.core.fanout.FanOutResult;
import io.loomgate.core.fanout.StopWhen;
import io.loomgate.observe.event.Events;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * in its executor's queue (it never starts: {@code cancelled}), but it interrupts nothing: a part
 * already running when the answer is decided is {@code orphaned}. It runs to its natural end after
 * the response has gone, and the events hear how long it kept working.
 *
 * <p>It always fails fast, whatever the {@link StopWhen}: the baseline is there to be compared with
 * "all". CompletableFuture tasks do not inherit scoped values, so each task binds the request
 * context again.
 */
final class CompletableFutureFanOut implements FanOut {

    private final Executor executor;
    private final String executorName;
    private final Events listener;

    /** @param executorName how the answer names the executor, e.g. {@code common-pool} */
    CompletableFutureFanOut(Executor executor, String executorName, Events listener) {
        this.executor = executor;
        this.executorName = executorName;
        this.listener = listener;
    }

    @Override
    public String name() {
        return "completable-future";
    }

    @Override
    public Optional<String> executor() {
        return Optional.of(executorName);
    }

    @Override
    public FanOutResult run(List<Part> parts, StopWhen stopWhen) throws InterruptedException {
        if (!parts.stream().allMatch(Part::immediate)) {
            throw new IllegalArgumentException("the CompletableFuture baseline starts every part at once; "
                    + "delayed parts (hedges) need the structured engine");
        }
        RequestContext ctx = RequestContext.current();
        long start = System.nanoTime();
        List<Slot> slots = new ArrayList<>(parts.size());
        List<CompletableFuture<Value>> futures = new ArrayList<>(parts.size());
        CompletableFuture<Object> firstFailure = new CompletableFuture<>();
        for (Part part : parts) {
            Slot slot = new Slot(part, ctx, listener);
            slots.add(slot);
            CompletableFuture<Value> f = CompletableFuture.supplyAsync(slot::run, executor);
            f.whenComplete((value, error) -> {
                if (error != null) {
                    firstFailure.completeExceptionally(error);
                }
            });
            futures.add(f);
        }
        CompletableFuture<Object> decided = CompletableFuture
                .anyOf(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), firstFailure)
                .orTimeout(ctx.remaining().toNanos(), TimeUnit.NANOSECONDS);
        boolean deadlineHit = false;
        try {
            decided.get();
        } catch (ExecutionException e) {
            deadlineHit = e.getCause() instanceof TimeoutException;
        } finally {
            futures.forEach(f -> f.cancel(true));  // interrupts nothing; see the class comment
        }
        long decidedAt = System.nanoTime();
        List<FinishedCall> results = new ArrayList<>(slots.size());
        for (Slot slot : slots) {
            results.add(slot.snapshot(decidedAt));
        }
        return new FanOutResult(results, deadlineHit, ctx.timeout(), Duration.ofNanos(decidedAt - start));
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

        private final Part part;
        private final RequestContext ctx;
        private final Events listener;
        private final AtomicInteger state = new AtomicInteger(PENDING);
        private volatile long began;
        private volatile long ended;
        private volatile long orphanedAt;
        private volatile Outcome outcome;

        Slot(Part part, RequestContext ctx, Events listener) {
            this.part = part;
            this.ctx = ctx;
            this.listener = listener;
        }

        Value run() {
            began = System.nanoTime();
            if (!state.compareAndSet(PENDING, RUNNING)) {
                throw new CancellationException("the answer was decided before this part started");
            }
            try {
                Value value = RequestContext.callWith(ctx, part.task()::call);
                outcome = new Outcome.Success(value);
                return value;
            } catch (Exception e) {
                outcome = RequestContext.callWith(ctx, () -> Failures.failed(part.upstream(), e));
                throw new CompletionException(e);
            } finally {
                ended = System.nanoTime();
                if (!state.compareAndSet(RUNNING, FINISHED)) {
                    listener.orphanEnded(part.upstream(), Duration.ofNanos(ended - Math.max(began, orphanedAt)));
                }
            }
        }

        /** What the answer reports for this part; settles whether it is orphaned or never runs. */
        FinishedCall snapshot(long now) {
            orphanedAt = now;
            if (state.compareAndSet(PENDING, SKIPPED)) {
                return new FinishedCall(part.upstream(), Outcome.CANCELLED, Duration.ZERO);
            }
            if (state.compareAndSet(RUNNING, ORPHANED)) {
                return new FinishedCall(part.upstream(), Outcome.ORPHANED, Duration.ofNanos(now - began));
            }
            return new FinishedCall(part.upstream(), outcome, Duration.ofNanos(ended - began));
        }
    }
}
