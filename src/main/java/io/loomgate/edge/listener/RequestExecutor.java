package io.loomgate.edge.listener;

import io.loomgate.config.ServerOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.edge.pipeline.Handoff;
import io.loomgate.edge.server.InlineExecutor;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The executor the JDK server hands each exchange to, and the threads that then do the work. The JDK
 * calls {@link #execute} from its dispatcher as soon as a connection has bytes to read, which makes
 * this the place to note the arrival time, and to count and track every exchange until it is done:
 * how many wait for a thread, how many run, and on which threads, so shutdown can wait for the
 * first and cut off the second.
 *
 * <p>On the JDK's server every exchange starts on a new virtual thread, which reads the request
 * head; loomgate's server runs it on the virtual thread of its connection ({@link #runHere}), which
 * read the head already, and starts none. In virtual mode
 * the whole request runs there. In platform mode {@link #work} moves a route's admitted work to the
 * fixed pool, where it may queue, and the virtual thread waits for it; the operator endpoints
 * ({@code /health}, {@code /metrics}, ...) answer on the virtual thread, so a busy pool never delays them.
 */
final class RequestExecutor implements InlineExecutor, Handoff {

    /** When the server saw the first byte of the current exchange ({@link System#nanoTime()}). */
    private static final ScopedValue<Long> ARRIVAL = ScopedValue.newInstance();

    private final ThreadFactory virtualThreads;
    private final ThreadPoolExecutor pool;
    private final LongAdder virtualStarted;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();

    private RequestExecutor(ThreadPoolExecutor pool, LongAdder virtualStarted) {
        this.pool = pool;
        this.virtualStarted = virtualStarted;
        this.virtualThreads = Thread.ofVirtual().name("request-", 1).factory();
    }

    /**
     * @param virtualStarted counts every virtual thread this executor starts
     */
    static RequestExecutor create(ServerOptions options, LongAdder virtualStarted) {
        ThreadPoolExecutor pool = null;
        if (options.threads() == ThreadMode.PLATFORM) {
            ThreadFactory named = Thread.ofPlatform().name("request-pool-", 1).daemon(false).factory();
            pool = new ThreadPoolExecutor(options.pool(), options.pool(), 0, TimeUnit.MILLISECONDS,
                    new LinkedBlockingQueue<>(), named);
            pool.prestartAllCoreThreads();
        }
        return new RequestExecutor(pool, virtualStarted);
    }

    @Override
    public void execute(Runnable exchange) {
        long arrival = System.nanoTime();
        inFlight.incrementAndGet();
        queued.incrementAndGet();
        try {
            virtualThreads.newThread(() -> run(() -> ScopedValue.where(ARRIVAL, arrival).run(exchange))).start();
            virtualStarted.increment();
        } catch (RuntimeException | Error e) {
            inFlight.decrementAndGet();
            queued.decrementAndGet();
            throw e;
        }
    }

    /** Loomgate's server: the exchange runs on its connection's thread, counted and tracked as {@link #execute}'s are. */
    @Override
    public void runHere(Runnable exchange, long arrivalNanos) {
        inFlight.incrementAndGet();
        queued.incrementAndGet();
        run(() -> ScopedValue.where(ARRIVAL, arrivalNanos).run(exchange));
    }

    /**
     * Runs a route's work and returns what it returns: here, in virtual mode; in platform mode on the
     * pool, while the calling virtual thread waits for it (without giving up at an interrupt: the
     * work answers the request, and shutdown interrupts the pool thread that runs it). The work
     * counts as queued until a pool thread picks it up, so shutdown waits for it.
     */
    @Override
    public <T> T work(Supplier<T> task) {
        if (pool == null) {
            return task.get();
        }
        queued.incrementAndGet();
        FutureTask<T> pooled = new FutureTask<>(() -> runPooled(task));
        try {
            pool.execute(pooled);
        } catch (RuntimeException | Error e) {
            queued.decrementAndGet();
            throw e;
        }
        return awaitUninterruptibly(pooled);
    }

    private <T> T runPooled(Supplier<T> task) {
        Thread self = Thread.currentThread();
        queued.decrementAndGet();
        running.add(self);
        try {
            return task.get();
        } finally {
            running.remove(self);
        }
    }

    private static <T> T awaitUninterruptibly(FutureTask<T> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    switch (e.getCause()) {
                        case RuntimeException r -> throw r;
                        case Error err -> throw err;
                        default -> throw new IllegalStateException(e.getCause());
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run(Runnable task) {
        Thread self = Thread.currentThread();
        queued.decrementAndGet();
        running.add(self);
        try {
            task.run();
        } finally {
            running.remove(self);
            inFlight.decrementAndGet();
        }
    }

    /** The arrival time of the exchange running on this thread, or now when called elsewhere. */
    static long arrivalNanos() {
        return ARRIVAL.isBound() ? ARRIVAL.get() : System.nanoTime();
    }

    /** Exchanges handed to this executor and not finished, queued ones included. */
    int inFlight() {
        return inFlight.get();
    }

    /** Exchanges handed over and not yet picked up by a thread (platform mode: the pool's queue). */
    int queued() {
        return queued.get();
    }

    /** Interrupts every thread still running an exchange, and says how many there were. */
    int interruptRunning() {
        int n = 0;
        for (Thread t : running) {
            t.interrupt();
            n++;
        }
        return n;
    }

    /** Platform mode: the pool, for its gauges; null in virtual mode. */
    ThreadPoolExecutor pool() {
        return pool;
    }

    /** Stops the pool, if there is one, after the server has stopped handing it work. */
    void shutdown() throws InterruptedException {
        if (pool != null) {
            pool.shutdown();
            if (!pool.awaitTermination(2, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        }
    }
}
