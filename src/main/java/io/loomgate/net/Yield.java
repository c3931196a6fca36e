package io.loomgate.net;

/**
 * A virtual thread about to wait for its socket lets the others run first. A blocking read that
 * finds nothing parks the thread: the socket is registered with the JDK's poller (an
 * {@code epoll_ctl}), and the thread is woken by it when bytes come. Under load the bytes a thread
 * waits for (the upstream's answer, the client's next request) often come while the other threads
 * on its carrier have their turn; a thread that lets them go first ({@link Thread#yield}, which for
 * a virtual thread is a requeue on its carrier, no system call) then reads them at once and never
 * parks. Idle, the yield returns at once and the read parks as before. Measured in
 * docs/performance.md (the cpu scenario): a proxied request at c=256 made two {@code epoll_ctl}
 * calls, and two parks and wakes; now none.
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
