package io.loomgate.aggregate;

import io.loomgate.call.Outcome;
import io.loomgate.call.RequestContext;
import io.loomgate.call.ServiceId;
import io.loomgate.call.Value;
import io.loomgate.config.ThreadMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The only class that touches the {@link StructuredTaskScope} preview API (JDK 25; JDK 26 renames
 * {@code anySuccessfulResultOrThrow} and changes what {@code allSuccessfulOrThrow} returns, so
 * keeping it here keeps that change to one file).
 *
 * <p>Forks one subtask per part in a scope with a thread factory for the server's thread mode and a
 * name that thread dumps show. A {@link RecordingJoiner} records each subtask's result as it
 * completes and cancels the scope when the {@link StopWhen} rule says so (the built-in joiners lose
 * the parts that had already finished once a deadline passes).
 *
 * <p><b>The deadline.</b> The {@link DeadlineTimer}'s one thread interrupts the owner at the
 * request's deadline: {@code join()} then throws, and closing the scope cancels every subtask still
 * running. This replaces {@code withTimeout}, which JDK 25 fires through the common ForkJoinPool (a
 * blocked common pool delayed every deadline: a 100 ms deadline fired after 3 s behind ten 300 ms
 * tasks), and the backstop thread per request that used to guard against that.
 *
 * <p><b>One part, no fork.</b> A fan-out of a single part that starts at once (a {@code single}
 * route) runs on the request's own thread ({@link InlinePart}).
 *
 * <p><b>A driven scope.</b> {@link #drive} opens a scope whose owner forks each task when its inputs
 * are ready ({@link DrivenScope}): a call graph runs in one scope, on its critical path.
 *
 * <p>A delayed part (a hedge's backup) waits in its own subtask, until its delay is over or a part
 * fails, and then asks to be admitted; if the scope stops during the wait, or it is not admitted, it
 * never starts and reports no start time.
 *
 * <p>A part still running when the scope stops was interrupted by it: it is {@code cancelled} when a
 * sibling decided the answer, {@code timeout} when the deadline did. A part that never started is
 * reported the same way, with a zero duration.
 */
final class StructuredFanOut implements FanOut {

    private final ThreadMode mode;
    private final LongAdder virtualStarted;

    StructuredFanOut(ThreadMode mode, LongAdder virtualStarted) {
        this.mode = mode;
        this.virtualStarted = virtualStarted;
    }

    @Override
    public String name() {
        return "structured";
    }

    /**
     * Returns only when every forked thread has ended: no subtask outlives this call.
     *
     * @throws InterruptedException when this request thread is interrupted by anything but its
     *                              deadline (shutdown cut it off)
     */
    @Override
    public FanOutResult run(List<Part> parts, StopWhen stopWhen) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        long start = System.nanoTime();
        DeadlineTimer.Deadline deadline = DeadlineTimer.shared().arm(Thread.currentThread(),
                start + ctx.remaining().toNanos());
        if (parts.size() == 1 && parts.getFirst().immediate()) {
            return InlinePart.run(parts.getFirst(), ctx, start, deadline);
        }
        int n = parts.size();
        AtomicLongArray began = new AtomicLongArray(n);
        AtomicLongArray ended = new AtomicLongArray(n);
        RecordingJoiner joiner = new RecordingJoiner(parts, stopWhen);
        ForkThreads threads = new ForkThreads(mode, virtualStarted);
        boolean interrupted = false;
        RuntimeException thrown = null;
        boolean fired;
        try {
            try (var scope = StructuredTaskScope.open(joiner, cfg -> cfg.withThreadFactory(threads)
                    .withName(ctx.endpoint() + " " + ctx.requestId()))) {
                for (int i = 0; i < n; i++) {
                    Part part = parts.get(i);
                    int index = i;
                    threads.nameNext(part.service() + "@" + ctx.requestId());
                    long forkedAt = System.nanoTime();
                    scope.fork(() -> {
                        if (!part.immediate()) {
                            joiner.awaitStartOrFailure(forkedAt + part.after().toNanos());
                            if (!part.admit().getAsBoolean()) {
                                throw new NotAdmitted();
                            }
                        }
                        began.set(index, System.nanoTime());
                        try {
                            return part.task().call();
                        } finally {
                            ended.set(index, System.nanoTime());
                        }
                    });
                }
                try {
                    scope.join();
                } catch (InterruptedException e) {
                    interrupted = true;   // closing the scope now cancels what still runs
                }
            }
        } finally {
            fired = deadline.disarm();
        }
        if (interrupted && !fired) {
            throw new InterruptedException("the request was interrupted");
        }
        boolean deadlineHit = interrupted;
        Outcome stopped = !joiner.ruleMet() && deadlineHit ? Outcome.TIMED_OUT : Outcome.CANCELLED;
        List<PartResult> results = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long from = began.get(i);
            Outcome recorded = joiner.recorded(i);
            Outcome outcome = recorded != null ? recorded : stopped;
            Duration took = from == 0 ? Duration.ZERO : Duration.ofNanos(ended.get(i) - from);
            Optional<Duration> startedAt = from == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(from - start));
            results.add(new PartResult(parts.get(i).service(), outcome, startedAt, took));
        }
        return new FanOutResult(results, deadlineHit, ctx.timeout(), Duration.ofNanos(System.nanoTime() - start));
    }

    /** {@link DrivenScope#run}: the owner forks as it goes; a joiner that never cancels until the owner says stop. */
    static DrivenScope.Finish drive(ThreadMode mode, LongAdder virtualStarted, DrivenScope.Body body)
            throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        DeadlineTimer.Deadline deadline = DeadlineTimer.shared().arm(Thread.currentThread(),
                System.nanoTime() + ctx.remaining().toNanos());
        StopJoiner joiner = new StopJoiner();
        ForkThreads threads = new ForkThreads(mode, virtualStarted);
        LinkedBlockingQueue<DrivenScope.Ended> ended = new LinkedBlockingQueue<>();
        boolean interrupted = false;
        RuntimeException thrown = null;
        boolean fired;
        try {
            try (var scope = StructuredTaskScope.open(joiner, cfg -> cfg.withThreadFactory(threads)
                    .withName(ctx.endpoint() + " " + ctx.requestId()))) {
                DrivenScope driven = new DrivenScope() {
                    @Override
                    public void fork(int id, String name, Callable<Value> task, Optional<Duration> timeout) {
                        threads.nameNext(name + "@" + ctx.requestId());
                        scope.fork(() -> {
                            ended.add(DrivenTask.run(id, task, timeout));
                            return null;
                        });
                    }

                    @Override
                    public DrivenScope.Ended next() throws InterruptedException {
                        return ended.take();
                    }
                };
                try {
                    body.run(driven);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (RuntimeException e) {
                    thrown = e;
                }
                joiner.stop();
                scope.fork(() -> null);   // the joiner cancels the scope on this fork: what still runs is interrupted
                try {
                    scope.join();
                } catch (InterruptedException lateInterrupt) {
                    // the work was done before it came; closing the scope is all that is left
                }
            }
        } finally {
            fired = deadline.disarm();
        }
        if (interrupted && !fired) {
            throw new InterruptedException("the request was interrupted");
        }
        if (thrown != null) {
            throw thrown;
        }
        List<DrivenScope.Ended> late = new ArrayList<>();
        ended.drainTo(late);
        return new DrivenScope.Finish(interrupted, late);
    }

    /** Never cancels on its own; cancels the scope at the first fork after {@link #stop}. */
    private static final class StopJoiner implements Joiner<Object, Void> {
        private volatile boolean stop;

        void stop() {
            stop = true;
        }

        @Override
        public boolean onFork(Subtask<?> subtask) {
            return stop;
        }

        @Override
        public Void result() {
            return null;
        }
    }

    /** A delayed part that was not admitted when its wait was over: not a failure of its upstream. */
    private static final class NotAdmitted extends Exception {
        NotAdmitted() {
            super("not admitted", null, false, false);
        }
    }

    /**
     * Records each part's outcome as it completes, and cancels the scope when the rule is met.
     * Subtasks that finish after the scope is cancelled are never reported to it: they stay unrecorded.
     */
    private static final class RecordingJoiner implements Joiner<Value, Void> {

        private final List<Part> parts;
        private final StopWhen stopWhen;
        private final Map<Subtask<?>, Integer> indexes = new ConcurrentHashMap<>();
        private final AtomicReferenceArray<Outcome> results;
        private final AtomicInteger successes = new AtomicInteger();
        private final AtomicInteger failures = new AtomicInteger();
        private final CountDownLatch firstFailure;   // only when a part waits for it: most fan-outs have none
        private volatile boolean ruleMet;
        private int forked;

        RecordingJoiner(List<Part> parts, StopWhen stopWhen) {
            this.parts = parts;
            this.stopWhen = stopWhen;
            this.results = new AtomicReferenceArray<>(parts.size());
            boolean delayed = false;
            for (Part p : parts) {
                delayed |= !p.immediate();
            }
            this.firstFailure = delayed ? new CountDownLatch(1) : null;
        }

        @Override
        public boolean onFork(Subtask<? extends Value> subtask) {
            indexes.put(subtask, forked++);  // the owner forks one at a time, in the parts' order
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends Value> subtask) {
            int index = indexes.get(subtask);
            boolean succeeded = subtask.state() == Subtask.State.SUCCESS;
            results.set(index, succeeded ? new Outcome.Success(subtask.get()) : failed(index, subtask.exception()));
            if (!succeeded && firstFailure != null) {
                firstFailure.countDown();
            }
            int ok = succeeded ? successes.incrementAndGet() : successes.get();
            int bad = succeeded ? failures.get() : failures.incrementAndGet();
            if (stopWhen.decided(ok, bad, parts.size())) {
                ruleMet = true;
                return true;
            }
            return false;
        }

        private Outcome failed(int index, Throwable error) {
            ServiceId service = parts.get(index).service();
            return error instanceof NotAdmitted ? new Outcome.Failed(service + ": not sent") : Failures.failed(service, error);
        }

        @Override
        public Void result() {
            return null;
        }

        /**
         * A delayed part's wait: until {@code atNanos}, or until a part fails. The scope's
         * cancellation interrupts it, and the part never starts.
         */
        void awaitStartOrFailure(long atNanos) throws InterruptedException {
            firstFailure.await(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        /** The part's outcome, or null if it had not finished when the scope stopped. */
        Outcome recorded(int index) {
            return results.get(index);
        }

        /** True when the parts decided the answer (a failure under "all", a success under "any", k under "quorum"). */
        boolean ruleMet() {
            return ruleMet;
        }
    }
}
