package io.loomgate.edge.server;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Virtual threads started ahead of need and parked, each to run one new connection.
 *
 * <p>Why: JDK 25's scheduler puts every virtual thread's start in its queue for work from outside
 * ({@code VirtualThread.start} submits it there even from a virtual thread), and a carrier takes from
 * that queue only once its own is empty. Under steady load on one carrier the connections already
 * served keep its own queue full, so a burst of new connections waited there: 256 opened at once
 * against a saturated proxy, the last one's thread first ran 78 ms to 968 ms after it was accepted,
 * and that was wrk's slowest answer of the window (docs/performance.md, "One carrier's slow answers").
 * A spare is woken instead: the accepting thread, itself a virtual thread woken by the poller, unparks
 * it onto its carrier's own queue, behind the work already there, as a read's wake-up is.
 *
 * <p>Each spare runs one connection and ends. {@link #topUp} starts more (through the outside queue,
 * ahead of need) until {@code target} wait; a burst larger than that, or one that comes before the
 * spares have run, gets threads started as before ({@link #hand} says false).
 */
final class Spares {

    private final int target;
    private final ThreadFactory threads;
    private final LongAdder started;
    private final ConcurrentLinkedQueue<Spare> parked = new ConcurrentLinkedQueue<>();
    /** Spares started and not yet handed work: parked, or started and not yet run. */
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean closed;

    /** Up to {@code target} spares, each a thread of {@code threads} (virtual ones); {@code started} counts each. */
    Spares(int target, ThreadFactory threads, LongAdder started) {
        this.target = target;
        this.threads = threads;
        this.started = started;
    }

    /** Starts spares until {@code target} are waiting; does nothing once closed. */
    void topUp() {
        while (!closed && waiting.get() < target) {
            waiting.incrementAndGet();
            threads.newThread(new Spare()).start();
            started.increment();
        }
    }

    /** Hands {@code work} to a parked spare, which runs it: true, or false if none is parked. */
    boolean hand(Runnable work) {
        Spare spare = parked.poll();
        if (spare == null) {
            return false;
        }
        waiting.decrementAndGet();
        spare.give(work);
        return true;
    }

    /** Ends every spare parked now or parking later; {@link #hand} then says false. */
    void close() {
        closed = true;
        for (Spare spare; (spare = parked.poll()) != null; ) {
            waiting.decrementAndGet();
            spare.give(null);
        }
    }

    /** How many are parked now. */
    int parked() {
        return parked.size();
    }

    private final class Spare implements Runnable {

        private volatile Thread thread;
        private volatile Runnable work;
        private volatile boolean given;

        @Override
        public void run() {
            thread = Thread.currentThread();
            parked.add(this);
            if (closed && parked.remove(this)) {   // close() drained the queue before this joined it
                waiting.decrementAndGet();
                return;
            }
            while (!given) {
                LockSupport.park(this);
                Thread.interrupted();   // nobody else knows this thread: an interrupt is not for the work to come
            }
            Runnable w = work;
            if (w != null) {
                w.run();
            }
        }

        void give(Runnable w) {
            work = w;
            given = true;
            LockSupport.unpark(thread);
        }
    }
}
