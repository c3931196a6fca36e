package io.loomgate.core.engine;

import io.loomgate.config.ThreadMode;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * Makes the scope's threads: virtual, or platform in platform mode so the comparison stays
 * honest, each named after its upstream and request ({@code db@9c41e2-7}). Used by the owner
 * thread only, one fork at a time.
 */
final class ForkThreads implements ThreadFactory {

    private final ThreadMode mode;
    private final LongAdder virtualStarted;
    private String nextName = "fork";

    ForkThreads(ThreadMode mode, LongAdder virtualStarted) {
        this.mode = mode;
        this.virtualStarted = virtualStarted;
    }

    void nameNext(String name) {
        this.nextName = name;
    }

    @Override
    public Thread newThread(Runnable task) {
        if (mode == ThreadMode.VIRTUAL) {
            virtualStarted.increment();
            return Thread.ofVirtual().name(nextName).unstarted(task);
        }
        return Thread.ofPlatform().name(nextName).daemon(true).unstarted(task);
    }
}
