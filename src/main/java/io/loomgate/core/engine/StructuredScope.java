package io.loomgate.core.engine;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The only class that touches the {@link StructuredTaskScope} preview API (JDK 25; JDK 26 renames
 * {@code anySuccessfulResultOrThrow} and adds {@code Joiner.onTimeout}, and the API is final in 28,
 * so keeping it here keeps those changes to one file).
 *
 * <p>It opens one scope per request, with a thread factory for the server's thread mode and a name
 * that thread dumps show, and lets its owner drive it ({@link DrivenScope}): fork a task, wait for
 * the next to end, fork again. The joiner never cancels on its own: when the owner is done, it
 * says stop, and the next fork cancels the scope, interrupting whatever still runs.
 *
 * <p><b>The deadline.</b> The {@link DeadlineTimer} interrupts the owner at the request's deadline
 * (not {@code withTimeout}, which JDK 25 fires through the common pool): its wait then throws, and
 * the scope is cancelled the same way.
 */
final class StructuredScope {

    private StructuredScope() {
    }

    /** {@link DrivenScope#run}. */
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

                    @Override
                    public Optional<DrivenScope.Ended> next(long untilNanos) throws InterruptedException {
                        return Optional.ofNullable(ended.poll(untilNanos - System.nanoTime(), TimeUnit.NANOSECONDS));
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

    /**
     * {@link ConnectionScope}'s scope: no deadline, no result, a joiner that never cancels on its own;
     * {@link #cancel} makes the next fork cancel it, interrupting every task still running.
     */
    static final class Owned {
        private final StopJoiner joiner = new StopJoiner();
        private final StructuredTaskScope<Object, Void> scope;

        Owned(String name, ThreadFactory threads) {
            scope = StructuredTaskScope.open(joiner, cfg -> cfg.withThreadFactory(threads).withName(name));
        }

        void fork(Runnable task) {
            scope.fork(() -> {
                task.run();
                return null;
            });
        }

        void cancel() {
            joiner.stop();
            scope.fork(() -> null);
        }

        void join() throws InterruptedException {
            scope.join();
        }

        void close() {
            scope.close();
        }
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
}
