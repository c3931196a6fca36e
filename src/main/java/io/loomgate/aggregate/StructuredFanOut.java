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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The only class that touches the {@link StructuredTaskScope} preview API (JDK 25; JDK 26 renames
 * {@code anySuccessfulResultOrThrow} and changes what {@code allSuccessfulOrThrow} returns, so
 * keeping it here keeps that change to one file).
 *
 * <p>Forks one subtask per part in a scope with the request's deadline ({@code withTimeout}), a
 * thread factory for the server's thread mode, and a name that thread dumps show. A
 * {@link RecordingJoiner} records each subtask's result as it completes and cancels the scope when
 * the {@link StopWhen} rule says so. It must: once {@code join()} has thrown
 * {@code TimeoutException}, the owner can no longer read a subtask's result ({@code get()} throws
 * "join not called"), so the built-in joiners lose the parts that had already finished.
 *
 * <p>A delayed part (a hedge's backup) waits in its own subtask, until its delay is over or a part
 * fails, and then asks to be admitted; if the scope stops during the wait, or it is not admitted, it
 * never starts and reports no start time.
 *
 * <p>A part still running when the scope stops was interrupted by it: it is {@code cancelled} when a
 * sibling decided the answer, {@code timeout} when the deadline did. A part that never started is
 * reported the same way, with a zero duration.
 *
 * <p><b>The backstop.</b> JDK 25 runs the {@code withTimeout} timer's action on the common
 * ForkJoinPool. Blocking tasks there (as {@code /aggregate-old} does, on purpose) delay every
 * scope's deadline in the JVM: measured here, a 100 ms deadline fired after 3 s behind ten 300 ms
 * tasks. So each scope also forks a virtual thread that sleeps until the deadline plus
 * {@link #BACKSTOP_SLACK}; its wake-up does not depend on the common pool.
 */
final class StructuredFanOut implements FanOut {

    /** How long after the deadline the backstop fires, if {@code withTimeout} has not. */
    static final Duration BACKSTOP_SLACK = Duration.ofMillis(15);

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

    /** Returns only when every forked thread has ended: no subtask outlives this call. */
    @Override
    public FanOutResult run(List<Part> parts, StopWhen stopWhen) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        Duration deadline = ctx.remaining();
        long start = System.nanoTime();
        int n = parts.size();
        AtomicLongArray began = new AtomicLongArray(n);
        AtomicLongArray ended = new AtomicLongArray(n);
        RecordingJoiner joiner = new RecordingJoiner(parts, stopWhen);
        ForkThreads threads = new ForkThreads(mode, virtualStarted);
        boolean timedOut = false;
        try (var scope = StructuredTaskScope.open(joiner, cfg -> cfg.withTimeout(deadline)
                .withThreadFactory(threads).withName(ctx.endpoint() + " " + ctx.requestId()))) {
            for (int i = 0; i < n; i++) {
                Part part = parts.get(i);
                int index = i;
                threads.nameNext(part.service() + "@" + ctx.requestId(), false);
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
            threads.nameNext("deadline@" + ctx.requestId(), true);
            long backstopAt = System.nanoTime() + deadline.plus(BACKSTOP_SLACK).toNanos();
            scope.fork(() -> awaitBackstop(backstopAt));
            try {
                scope.join();
            } catch (StructuredTaskScope.TimeoutException e) {
                timedOut = true;
            }
        }
        boolean deadlineHit = timedOut || joiner.backstopFired();
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

    /** A delayed part that was not admitted when its wait was over: not a failure of its upstream. */
    private static final class NotAdmitted extends Exception {
        NotAdmitted() {
            super("not admitted", null, false, false);
        }
    }

    /**
     * Parks until {@code atNanos}, or until the scope is done with this thread and interrupts it. It
     * returns either way instead of throwing: the backstop is interrupted on nearly every request,
     * and an exception each time would cost more than the backstop itself.
     */
    private static Value awaitBackstop(long atNanos) {
        long left;
        while (!Thread.currentThread().isInterrupted() && (left = atNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
        return null;
    }

    /**
     * Records each part's outcome as it completes, and cancels the scope when the rule is met, when
     * every part is done (so the backstop need not be waited for), or when the backstop fires.
     * Subtasks that finish after the scope is cancelled are never reported to it: they stay unrecorded.
     */
    private static final class RecordingJoiner implements Joiner<Value, Void> {

        private final List<Part> parts;
        private final StopWhen stopWhen;
        private final Map<Subtask<?>, Integer> indexes = new ConcurrentHashMap<>();
        private final AtomicReferenceArray<Outcome> results;
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicInteger successes = new AtomicInteger();
        private final AtomicInteger failures = new AtomicInteger();
        private final CountDownLatch firstFailure;   // only when a part waits for it: most fan-outs have none
        private volatile boolean backstopFired;
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
            indexes.put(subtask, forked++);  // the owner forks one at a time, parts first, backstop last
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends Value> subtask) {
            int index = indexes.get(subtask);
            if (index == parts.size()) {
                backstopFired = true;
                return true;
            }
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
            return done.incrementAndGet() == parts.size();
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

        boolean backstopFired() {
            return backstopFired;
        }

        /** True when the parts decided the answer (a failure under "all", a success under "any", k under "quorum"). */
        boolean ruleMet() {
            return ruleMet;
        }
    }

    /**
     * Makes the scope's threads: virtual, or platform in platform mode so the comparison stays
     * honest, each named after its upstream and request ({@code db@9c41e2-7}). The backstop is
     * always virtual: it only sleeps. Used by the owner thread only, one fork at a time.
     */
    private static final class ForkThreads implements ThreadFactory {

        private final ThreadMode mode;
        private final LongAdder virtualStarted;
        private String nextName = "fork";
        private boolean nextVirtual;

        ForkThreads(ThreadMode mode, LongAdder virtualStarted) {
            this.mode = mode;
            this.virtualStarted = virtualStarted;
        }

        void nameNext(String name, boolean forceVirtual) {
            this.nextName = name;
            this.nextVirtual = forceVirtual || mode == ThreadMode.VIRTUAL;
        }

        @Override
        public Thread newThread(Runnable task) {
            if (nextVirtual) {
                virtualStarted.increment();
                return Thread.ofVirtual().name(nextName).unstarted(task);
            }
            return Thread.ofPlatform().name(nextName).daemon(true).unstarted(task);
        }
    }
}
