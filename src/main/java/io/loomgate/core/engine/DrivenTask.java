package io.loomgate.core.engine;

import io.loomgate.core.call.OwnTimeout;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Value;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * One task of a {@link DrivenScope}, on its own thread: its start and end times, its value or what
 * it threw, and its own timeout, armed on the shared deadline thread, which interrupts it when the
 * timeout passes; it then ends as {@link DrivenScope.TimedOut}.
 */
final class DrivenTask {

    private DrivenTask() {
    }

    /** Runs {@code task} on this thread, under its own timeout if it has one, and says how it ended. */
    static DrivenScope.Ended run(int id, Callable<Value> task, Optional<Duration> timeout) {
        long began = System.nanoTime();
        DeadlineTimer.Deadline own = timeout.map(t -> DeadlineTimer.shared().arm(Thread.currentThread(), began + t.toNanos()))
                .orElse(null);
        Value value = null;
        Throwable failure = null;
        try {
            value = own == null ? task.call() : OwnTimeout.under(own::fired, task::call);
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (own != null && own.disarm() && value == null) {
                failure = new DrivenScope.TimedOut(timeout.get());
            }
        }
        return new DrivenScope.Ended(id, value, failure, began, System.nanoTime());
    }

    /** {@link DrivenScope#alone}. */
    static DrivenScope.Alone alone(int id, Callable<Value> task) throws InterruptedException {
        RequestContext ctx = RequestContext.current();
        long began = System.nanoTime();
        DeadlineTimer.Deadline deadline = DeadlineTimer.shared().arm(Thread.currentThread(), began + ctx.remaining().toNanos());
        Value value = null;
        Throwable failure = null;
        boolean fired;
        try {
            value = task.call();
        } catch (Throwable t) {
            failure = t;
        } finally {
            fired = deadline.disarm();
        }
        if (failure instanceof InterruptedException && !fired) {
            throw new InterruptedException("the request was interrupted");
        }
        return new DrivenScope.Alone(new DrivenScope.Ended(id, value, failure, began, System.nanoTime()),
                fired && value == null);
    }
}
