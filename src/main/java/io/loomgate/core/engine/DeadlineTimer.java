package io.loomgate.core.engine;

import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One platform thread that interrupts a request's thread when its deadline passes: the deadline of
 * every fan-out in the JVM, in place of a scope timeout plus a backstop thread per request.
 *
 * <p>Why its own thread: JDK 25 fires {@code StructuredTaskScope}'s {@code withTimeout} through the
 * common ForkJoinPool, so a blocked common pool (as {@code /aggregate-old} blocks it) delays every
 * deadline. This thread waits on a {@link DelayQueue}, a timed wait of the OS, and depends on
 * neither the common pool nor the virtual-thread scheduler.
 *
 * <p><b>The handshake.</b> The owner arms a deadline, does its work, and disarms it. Disarming
 * either wins (the deadline never fires) or learns that it fired, waits until the interrupt has
 * been delivered, and clears the owner's interrupt flag, so an interrupt can never leak into what
 * the thread does next. A disarmed deadline drops its thread at once and leaves the queue when its
 * time comes, so the queue holds a small record per request for at most its timeout.
 *
 * <pre>{@code
 * DeadlineTimer.Deadline d = DeadlineTimer.shared().arm(Thread.currentThread(), System.nanoTime() + timeout);
 * try { ... interruptible work ... } catch (InterruptedException e) { ... } finally { fired = d.disarm(); }
 * }</pre>
 */
final class DeadlineTimer {

    private static final DeadlineTimer SHARED = new DeadlineTimer();

    private final DelayQueue<Deadline> queue = new DelayQueue<>();
    private volatile Thread thread;

    static DeadlineTimer shared() {
        return SHARED;
    }

    /** Interrupts {@code owner} at {@code atNanos} ({@link System#nanoTime()}) unless disarmed first. */
    Deadline arm(Thread owner, long atNanos) {
        if (thread == null) {
            start();
        }
        Deadline d = new Deadline(owner, atNanos);
        queue.offer(d);
        return d;
    }

    private synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("loomgate-deadlines").daemon(true).start(this::loop);
        }
    }

    private void loop() {
        while (true) {
            try {
                queue.take().fire();
            } catch (InterruptedException e) {
                // Nothing stops this thread but the JVM's end; an interrupt is a mistake to survive.
            }
        }
    }

    /** One armed deadline. */
    static final class Deadline implements Delayed {

        private static final int ARMED = 0;
        private static final int FIRING = 1;
        private static final int FIRED = 2;
        private static final int DISARMED = 3;

        private final long atNanos;
        private final AtomicInteger state = new AtomicInteger(ARMED);
        private volatile Thread owner;

        private Deadline(Thread owner, long atNanos) {
            this.owner = owner;
            this.atNanos = atNanos;
        }

        private void fire() {
            Thread t = owner;
            if (t != null && state.compareAndSet(ARMED, FIRING)) {
                t.interrupt();
                state.set(FIRED);
            }
        }

        /** True from the moment it starts to fire: before its owner sees the interrupt. */
        boolean fired() {
            int s = state.get();
            return s == FIRING || s == FIRED;
        }

        /**
         * Ends this deadline. Must be called by the owner, once, after its work.
         *
         * @return true if the deadline fired: the owner was interrupted for it, and its interrupt
         *         flag is now clear
         */
        boolean disarm() {
            owner = null;
            if (state.compareAndSet(ARMED, DISARMED)) {
                return false;
            }
            while (state.get() == FIRING) {
                Thread.onSpinWait();
            }
            Thread.interrupted();
            return true;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(atNanos, ((Deadline) other).atNanos);
        }
    }
}
