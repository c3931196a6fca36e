package io.loomgate.demo;

import io.loomgate.core.fanout.FanOut;
import io.loomgate.observe.event.Events;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.LongAdder;

/** The CompletableFuture baselines a route can choose ({@code "engine": "completable-future"}). */
public final class Baselines {

    private Baselines() {
    }

    /** {@code supplyAsync} without an executor, i.e. on the common pool: the slow baseline. */
    public static FanOut commonPool(Events listener) {
        return new CompletableFutureFanOut(ForkJoinPool.commonPool(), "common-pool", listener);
    }

    /** The fair baseline: the same kind of threads as the structured engine, without the structure. */
    public static FanOut virtualThreads(Events listener, LongAdder virtualStarted) {
        Executor virtualPerTask = task -> {
            virtualStarted.increment();
            Thread.ofVirtual().name("aggregate-cf-task").start(task);
        };
        return new CompletableFutureFanOut(virtualPerTask, "virtual-threads", listener);
    }
}
