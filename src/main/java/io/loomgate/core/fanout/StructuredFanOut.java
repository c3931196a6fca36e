package io.loomgate.core.fanout;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.atomic.LongAdder;

/**
 * The only class that touches the {@link StructuredTaskScope} preview API (JDK 25; JDK 26 renames
 * {@code anySuccessfulResultOrThrow} and changes what {@code allSuccessfulOrThrow} returns, so
 * keeping it here keeps that change to one file).
 *
 * <p>Forks one subtask per part in a scope with a thread factory for the server's thread mode and a
 * name that thread dumps show. A {@link RecordingJoiner} records each subtask's result as it
 * completes ({@link PartOutcomes}) and cancels the scope when the {@link StopWhen} rule says so.
 *
 * <p><b>The deadline.</b> The {@link DeadlineTimer} interrupts the owner at the request's deadline
 * (not {@code withTimeout}, which JDK 25 fires through the common pool): {@code join()} then
 * throws, and closing the scope cancels every subtask still running.
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
        PartClock clock = new PartClock(start, parts.size());
        PartOutcomes outcomes = new PartOutcomes(parts, stopWhen);
        RecordingJoiner joiner = new RecordingJoiner(outcomes);
        ForkThreads threads = new ForkThreads(mode, virtualStarted);
        boolean interrupted = false;
        boolean fired;
        try {
            try (var scope = StructuredTaskScope.open(joiner, cfg -> cfg.withThreadFactory(threads)
                    .withName(ctx.endpoint() + " " + ctx.requestId()))) {
                for (int i = 0; i < parts.size(); i++) {
                    Part part = parts.get(i);
                    int index = i;
                    threads.nameNext(part.service() + "@" + ctx.requestId());
                    long forkedAt = System.nanoTime();
                    scope.fork(() -> {
                        if (!part.immediate()) {
                            outcomes.awaitStartOrFailure(forkedAt + part.after().toNanos());
                            if (!part.admit().getAsBoolean()) {
                                throw new PartOutcomes.NotAdmitted();
                            }
                        }
                        clock.began(index);
                        try {
                            return part.task().call();
                        } finally {
                            clock.ended(index);
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
        Outcome stopped = !outcomes.ruleMet() && deadlineHit ? Outcome.TIMED_OUT : Outcome.CANCELLED;
        return new FanOutResult(clock.results(parts, outcomes::recorded, stopped), deadlineHit, ctx.timeout(),
                Duration.ofNanos(System.nanoTime() - start));
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

    /**
     * Hands each part's completion to its {@link PartOutcomes}, and cancels the scope when they say
     * the answer is decided (the built-in joiners lose the parts that had finished once a deadline
     * passes). Subtasks that finish after the scope is cancelled are never reported to it.
     */
    private static final class RecordingJoiner implements Joiner<Value, Void> {

        private final PartOutcomes outcomes;
        private final Map<Subtask<?>, Integer> indexes = new ConcurrentHashMap<>();
        private int forked;

        RecordingJoiner(PartOutcomes outcomes) {
            this.outcomes = outcomes;
        }

        @Override
        public boolean onFork(Subtask<? extends Value> subtask) {
            indexes.put(subtask, forked++);  // the owner forks one at a time, in the parts' order
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends Value> subtask) {
            int index = indexes.get(subtask);
            return subtask.state() == Subtask.State.SUCCESS ? outcomes.succeeded(index, subtask.get())
                    : outcomes.failed(index, subtask.exception());
        }

        @Override
        public Void result() {
            return null;
        }
    }
}
