package io.loomgate.edge.server;

import java.util.concurrent.CountDownLatch;

/** The connection's waits for its exchange: they end when the exchange does, whatever interrupts them. */
final class Latches {

    private Latches() {
    }

    /** Waits for {@code latch}; an interrupt meanwhile is kept for the caller to see. */
    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
