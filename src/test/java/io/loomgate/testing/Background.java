package io.loomgate.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs test clients in the background on virtual threads. Never on the common pool: the server
 * under test shares it ({@code /aggregate-old}, scope timers), and a blocking client call there
 * makes the pool add compensating threads, which changes what the test measures.
 */
public final class Background {

    private static final Executor VIRTUAL = task -> Thread.ofVirtual().name("test-client").start(task);

    private Background() {
    }

    public static <T> CompletableFuture<T> supply(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, VIRTUAL);
    }
}
