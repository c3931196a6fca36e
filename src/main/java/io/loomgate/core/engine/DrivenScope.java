package io.loomgate.core.engine;

import io.loomgate.config.ThreadMode;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;

/**
 * One structured scope for one request, driven by its owner: the owner forks a task the moment its
 * inputs are ready, waits for the next task to end, forks what that made ready, and so on. This is
 * loomgate's one engine: a call graph runs each call on its critical path, and a fan-out (a graph
 * without edges) forks its parts and stops once its policy's rule is met, each in a single scope
 * with the request's one deadline. The preview API itself stays in {@link StructuredScope}.
 *
 * <pre>{@code
 * DrivenScope.Finish f = DrivenScope.run(mode, started, scope -> {
 *     scope.fork(0, "user", () -> users.call(...), Optional.empty());
 *     DrivenScope.Ended e = scope.next();          // the user call ended: fork what needed it
 *     ...
 * });
 * }</pre>
 */
public interface DrivenScope {

    /**
     * Forks {@code task} as a subtask of the scope, on a thread named {@code name@requestId}; its
     * end is reported by {@link #next}. Only the thread that called {@link #run} may fork.
     *
     * @param timeout the task's own limit below the request's deadline: when it passes, the task's
     *                thread is interrupted and it ends as {@link TimedOut}
     */
    void fork(int id, String name, Callable<Value> task, Optional<Duration> timeout);

    /** The next forked task to end, waiting until one does; interrupted at the request's deadline. */
    Ended next() throws InterruptedException;

    /**
     * The next forked task to end, waiting until one does or {@code untilNanos} ({@link System#nanoTime()})
     * comes; empty then. This is how the owner times a task it forks later (a hedge's backup).
     */
    Optional<Ended> next(long untilNanos) throws InterruptedException;

    /**
     * A task that ended: with a value, or with what it threw.
     *
     * @param startNanos when it began to run ({@link System#nanoTime()})
     * @param endNanos   when it ended
     */
    record Ended(int id, Value value, Throwable failure, long startNanos, long endNanos) {
        public boolean succeeded() {
            return failure == null;
        }
    }

    /** What the owner's work came to, as the scope saw it. */
    @FunctionalInterface
    interface Body {
        void run(DrivenScope scope) throws InterruptedException;
    }

    /**
     * @param deadlineHit true when the request's deadline interrupted the owner's work before it was done
     * @param late        the tasks that ended after the owner stopped waiting (they were cancelled by the scope)
     */
    record Finish(boolean deadlineHit, List<Ended> late) {
        public Finish {
            late = List.copyOf(late);
        }
    }

    /** A task stopped by its own timeout. */
    final class TimedOut extends Exception {
        private final Duration limit;

        TimedOut(Duration limit) {
            super("no answer within its own " + io.loomgate.config.Durations.format(limit), null, false, false);
            this.limit = Objects.requireNonNull(limit, "limit");
        }

        public Duration limit() {
            return limit;
        }
    }

    /**
     * Runs {@code body} on this thread with a new scope, under the current request's deadline. When
     * the body returns, or the deadline interrupts it, the scope is cancelled: every task still
     * running is interrupted, and this returns only once every one has ended. What the body throws
     * (an {@link io.loomgate.http.HttpError}: the request itself is bad) is thrown from here then.
     *
     * @throws InterruptedException when this thread was interrupted by anything but the deadline (shutdown)
     */
    static Finish run(ThreadMode mode, LongAdder virtualStarted, Body body) throws InterruptedException {
        return StructuredScope.drive(mode, virtualStarted, body);
    }

    /**
     * Runs one task on this thread under the current request's deadline, with no scope and no fork:
     * when there is nothing to run beside it, a scope and a thread would only add cost. Interrupted by
     * its deadline (or failing because of it: an HTTP upstream's socket closed under it), it ends as
     * {@link Alone#deadlineHit()}.
     *
     * @throws InterruptedException when this thread was interrupted by anything but the deadline (shutdown)
     */
    static Alone alone(int id, Callable<Value> task) throws InterruptedException {
        return DrivenTask.alone(id, task);
    }

    /** A task run {@link #alone}: how it ended, and whether the request's deadline stopped it. */
    record Alone(Ended ended, boolean deadlineHit) {
    }
}
