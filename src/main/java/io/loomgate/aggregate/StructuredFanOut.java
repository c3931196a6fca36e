package io.loomgate.aggregate;

import io.loomgate.config.ThreadMode;
import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.ThreadFactory;
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
 * <p>Forks one subtask per part in a scope with a deadline ({@code withTimeout}), a thread factory
 * for the server's thread mode, and a name that thread dumps show. A {@link RecordingJoiner} records
 * each subtask's result as it completes and cancels the scope when the {@link StopWhen} rule says
 * so. It must: once {@code join()} has thrown {@code TimeoutException}, the owner can no longer read
 * a subtask's result ({@code get()} throws "join not called"), so the built-in joiners lose the
 * parts that had already finished.
 *
 * <p><b>The backstop.</b> JDK 25 runs the {@code withTimeout} timer's action on the common
 * ForkJoinPool. Blocking tasks there (as {@code /aggregate-old} does, on purpose) delay every
 * scope's deadline in the JVM: measured here, a 100 ms deadline fired after 3 s behind ten 300 ms
 * tasks. So each scope also forks a virtual thread that sleeps until the deadline plus
 * {@link #BACKSTOP_SLACK}; its wake-up does not depend on the common pool.
 */
final class StructuredFanOut {

    /** How long after the deadline the backstop fires, if {@code withTimeout} has not. */
    static final Duration BACKSTOP_SLACK = Duration.ofMillis(15);

    /** One part to fork: its service (for its thread's name) and its work. */
    record Part(ServiceName service, Callable<ServiceValue> task) {
    }

    private StructuredFanOut() {
    }

    /**
     * Runs {@code parts} concurrently and returns what each did, in order. Returns only when every
     * forked thread has ended: no subtask outlives this call.
     *
     * @param deadline  time left until the request's deadline
     * @param timeout   the deadline as the request asked for it, for messages
     * @param scopeName shown in thread dumps, e.g. {@code /aggregate 9c41e2-7}
     * @throws InterruptedException when the calling thread is interrupted; the parts are cancelled
     */
    static FanOutResult run(List<Part> parts, StopWhen stopWhen, Duration deadline, Duration timeout,
                            ThreadMode mode, String requestId, String scopeName, LongAdder virtualStarted)
            throws InterruptedException {
        long start = System.nanoTime();
        int n = parts.size();
        AtomicLongArray began = new AtomicLongArray(n);
        AtomicLongArray ended = new AtomicLongArray(n);
        RecordingJoiner joiner = new RecordingJoiner(n, stopWhen);
        ForkThreads threads = new ForkThreads(mode, virtualStarted);
        boolean timedOut = false;
        try (var scope = StructuredTaskScope.open(joiner,
                cfg -> cfg.withTimeout(deadline).withThreadFactory(threads).withName(scopeName))) {
            for (int i = 0; i < n; i++) {
                Part part = parts.get(i);
                int index = i;
                threads.nameNext(part.service().wire() + "@" + requestId, false);
                scope.fork(() -> {
                    began.set(index, System.nanoTime());
                    try {
                        return part.task().call();
                    } finally {
                        ended.set(index, System.nanoTime());
                    }
                });
            }
            threads.nameNext("deadline@" + requestId, true);
            long backstopAt = System.nanoTime() + deadline.plus(BACKSTOP_SLACK).toNanos();
            scope.fork(() -> awaitBackstop(backstopAt));
            try {
                scope.join();
            } catch (StructuredTaskScope.TimeoutException e) {
                timedOut = true;
            }
        }
        List<Completion> completions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long from = began.get(i);
            Completion.Result result = from == 0 ? new Completion.NeverStarted() : joiner.recorded(i);
            Duration took = from == 0 ? Duration.ZERO : Duration.ofNanos(ended.get(i) - from);
            completions.add(new Completion(parts.get(i).service(), result, took));
        }
        boolean deadlineHit = timedOut || joiner.backstopFired();
        return new FanOutResult(completions, deadlineHit, timeout, Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * Parks until {@code atNanos}, or until the scope is done with this thread and interrupts it. It
     * returns either way instead of throwing: the backstop is interrupted on nearly every request,
     * and an exception each time would cost more than the backstop itself.
     */
    private static ServiceValue awaitBackstop(long atNanos) {
        long left;
        while (!Thread.currentThread().isInterrupted() && (left = atNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
        return null;
    }

    /**
     * Records each part's result as it completes, and cancels the scope when the rule is met, when
     * every part is done (so the backstop need not be waited for), or when the backstop fires.
     * Subtasks that finish after the scope is cancelled are never reported to it: they stay unfinished.
     */
    private static final class RecordingJoiner implements Joiner<ServiceValue, Void> {

        private final int parts;
        private final StopWhen stopWhen;
        private final Map<Subtask<?>, Integer> indexes = new ConcurrentHashMap<>();
        private final AtomicReferenceArray<Completion.Result> results;
        private final AtomicInteger done = new AtomicInteger();
        private volatile boolean backstopFired;
        private int forked;

        RecordingJoiner(int parts, StopWhen stopWhen) {
            this.parts = parts;
            this.stopWhen = stopWhen;
            this.results = new AtomicReferenceArray<>(parts);
        }

        @Override
        public boolean onFork(Subtask<? extends ServiceValue> subtask) {
            indexes.put(subtask, forked++);  // the owner forks one at a time, parts first, backstop last
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends ServiceValue> subtask) {
            int index = indexes.get(subtask);
            if (index == parts) {
                backstopFired = true;
                return true;
            }
            boolean succeeded = subtask.state() == Subtask.State.SUCCESS;
            results.set(index, succeeded
                    ? new Completion.Returned(subtask.get())
                    : new Completion.Threw(subtask.exception()));
            boolean decisive = switch (stopWhen) {
                case FIRST_FAILURE -> !succeeded;
                case FIRST_SUCCESS -> succeeded;
                case ALL_DONE -> false;
            };
            return decisive || done.incrementAndGet() == parts;
        }

        @Override
        public Void result() {
            return null;
        }

        Completion.Result recorded(int index) {
            Completion.Result r = results.get(index);
            return r != null ? r : new Completion.Unfinished();
        }

        boolean backstopFired() {
            return backstopFired;
        }
    }

    /**
     * Makes the scope's threads: virtual, or platform in platform mode so the comparison stays
     * honest, each named after its service and request ({@code db@9c41e2-7}). The backstop is
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
