package io.loomgate.edge.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One late hang-up watch ({@link ClientWatch}), handed to a thread that may not run it for a while.
 * It is started by the watchdog's platform thread, so its virtual thread waits in the scheduler's
 * queue for work submitted from outside, which a carrier takes only once its own queue is empty; under
 * load that took seconds. The exchange it was for may end meanwhile: then it is called off and never
 * touches the connection, and the connection's thread goes on at once instead of waiting for a watch
 * that has not begun. One that has begun is waited for, since it may be reading the socket.
 */
final class LateWatch implements Runnable {

    private static final int PENDING = 0;
    private static final int RUNNING = 1;
    private static final int CALLED_OFF = 2;

    private final Runnable watch;
    private final AtomicInteger phase = new AtomicInteger(PENDING);
    private final CountDownLatch ended = new CountDownLatch(1);

    /** {@code watch}, to be run by a thread of its own unless {@link #callOffOrAwait} comes first. */
    LateWatch(Runnable watch) {
        this.watch = watch;
    }

    @Override
    public void run() {
        if (!phase.compareAndSet(PENDING, RUNNING)) {
            return;   // called off: its exchange ended before it began
        }
        try {
            watch.run();
        } finally {
            ended.countDown();
        }
    }

    /**
     * Its exchange ended: calls it off if it has not begun (true), else waits for its end (false).
     * Either way the watch is not running when this returns.
     */
    boolean callOffOrAwait() {
        if (phase.compareAndSet(PENDING, CALLED_OFF)) {
            return true;
        }
        Latches.awaitUninterruptibly(ended);
        return false;
    }
}
