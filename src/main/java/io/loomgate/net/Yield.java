package io.loomgate.net;

/**
 * A virtual thread about to wait for its upstream's answer lets the others run first. A blocking
 * read that finds nothing parks the thread: the socket is registered with the JDK's poller (an
 * {@code epoll_ctl}), and the thread is woken by it when bytes come. Under load the answer often
 * comes while the other threads on its carrier have their turn; a thread that lets them go first
 * ({@link Thread#yield}, for a virtual thread a requeue on its carrier, no system call) then reads
 * it at once and does not park. Idle, the yield returns at once and the read parks as before.
 *
 * <p>Only where the thread parks again soon after: the server's wait for a client's next request
 * does not yield. A thread that yields there too need never park while its client keeps sending,
 * and the carrier, which runs its own queue until it is empty before it takes a thread woken from
 * outside (the poller's wakes), then starved those: p99 1.7 s and wrk's 2 s timeouts at c=256.
 * Measured in docs/performance.md (the cpu scenario).
 */
public final class Yield {

    private Yield() {
    }

    /** Before a read that would wait: yields when {@code buffered} bytes are none and the thread is virtual. */
    public static void beforeWaiting(int buffered) {
        if (buffered == 0 && Thread.currentThread().isVirtual()) {
            Thread.yield();
        }
    }
}
