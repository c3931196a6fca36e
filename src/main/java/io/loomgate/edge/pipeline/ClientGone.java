package io.loomgate.edge.pipeline;

import io.loomgate.http.RequestLedger;
import io.loomgate.http.StopReason;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A request's word that its client hung up, turned into an interrupt of the thread doing its
 * route's work, and only while that work runs: the work's scope is then cancelled, and its
 * upstreams see their connections closed. The same handshake as the deadline thread's: disarming
 * either wins, or waits for the interrupt and clears it, so it never lands on later work of the
 * thread (a pool thread's next request).
 */
final class ClientGone {

    private static final int WAITING = 0;
    private static final int ARMED = 1;
    private static final int FIRING = 2;
    private static final int FIRED = 3;
    private static final int DONE = 4;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private final RequestLedger ledger;
    private volatile Thread worker;
    private volatile boolean gone;

    ClientGone(RequestLedger ledger) {
        this.ledger = ledger;
    }

    /** The listener's hook: the client closed its connection; the request's stop reason, unless it had one, says so. */
    void fire() {
        ledger.stopped(StopReason.CLIENT_GONE);
        gone = true;
        Thread t = worker;
        if (state.compareAndSet(ARMED, FIRING)) {
            t.interrupt();
            state.set(FIRED);
        }
    }

    /** The route's work starts on this thread; false when the client had gone already. */
    boolean arm() {
        worker = Thread.currentThread();
        return state.compareAndSet(WAITING, ARMED) && !gone;
    }

    /** The route's work ended; a pending interrupt of this thread is waited for and cleared. */
    void disarm() {
        if (state.compareAndSet(ARMED, DONE) || state.compareAndSet(WAITING, DONE)) {
            return;
        }
        while (state.get() == FIRING) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
        state.set(DONE);
    }

    /** True once the client hung up. */
    boolean gone() {
        return gone;
    }
}
