package io.loomgate.upstream.cache;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Identical calls in flight at once share one: the first starts it on a virtual thread of its own,
 * the others wait for the same result, each until its own deadline. The shared call belongs to the
 * cache, not to the request that started it: it goes on while anyone waits, whoever started it, and
 * when the last waiter has left (each by its deadline or its own cancellation) it is interrupted,
 * which closes its connection, so it never outlives them all. A failure reaches those waiting and
 * no one else. A background refresh ({@link #refresh}) has no waiter to lose and runs to its end.
 *
 * <p>This is structured concurrency's rule (a subtask never outlives its owners) for a subtask with
 * several owners that come and go, which no one scope can hold.
 *
 * @param <T> what the call gives
 */
public final class Flights<T> {

    private final ConcurrentHashMap<String, Flight> flying = new ConcurrentHashMap<>();
    private final LongAdder joined = new LongAdder();
    private final String name;

    /** @param name names the calls' threads ({@code cache-db}) */
    public Flights(String name) {
        this.name = name;
    }

    /** One shared call. */
    private final class Flight {
        private final String key;
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private final boolean detached;
        private int waiters;
        private boolean closed;
        private Thread thread;

        Flight(String key, boolean detached) {
            this.key = key;
            this.detached = detached;
            this.claimed = detached;   // a refresh is started by no waiter: whoever comes joins it
        }

        private boolean claimed;

        /** -1: it ended, or was abandoned, as we came; 0: we are its first waiter, who starts it; 1: we joined it. */
        synchronized int join() {
            if (closed) {
                return -1;
            }
            waiters++;
            if (claimed) {
                return 1;
            }
            claimed = true;
            return 0;
        }

        synchronized void startOnce(Callable<T> work) {
            if (thread == null && !closed) {
                thread = Thread.ofVirtual().name(name + "-" + Integer.toHexString(key.hashCode())).start(() -> run(work));
            }
        }

        private void run(Callable<T> work) {
            try {
                T value = work.call();
                flying.remove(key, this);
                result.complete(value);
            } catch (Throwable t) {
                flying.remove(key, this);
                result.completeExceptionally(t);
            } finally {
                synchronized (this) {
                    closed = true;
                }
            }
        }

        synchronized void leave() {
            if (--waiters == 0 && !detached && !result.isDone()) {
                closed = true;
                flying.remove(key, this);
                if (thread != null) {
                    thread.interrupt();   // no one waits any more: the call stops, its connection closed
                }
                result.cancel(false);
            }
        }
    }

    /** A shared call's result, and whether this waiter joined a call another started ({@code collapsed}, RFC 9211 says). */
    public record Result<T>(T value, boolean joined) {
    }

    /**
     * The result of {@code key}'s call, started with {@code work} unless one is in flight.
     *
     * @throws TimeoutException     at {@code deadlineNanos} ({@link System#nanoTime()}); the call goes on for the others
     * @throws InterruptedException when this waiter is cancelled; the same
     * @throws ExecutionException   with the call's own failure
     */
    public Result<T> await(String key, Callable<T> work, long deadlineNanos)
            throws InterruptedException, TimeoutException, ExecutionException {
        Flight f;
        int joined;
        while (true) {
            f = flying.computeIfAbsent(key, k -> new Flight(k, false));
            joined = f.join();
            if (joined >= 0) {
                break;
            }
            flying.remove(key, f);   // it ended (or was abandoned) as we came: start or join another
        }
        if (joined == 1) {
            this.joined.increment();
        }
        try {
            f.startOnce(work);
            return new Result<>(f.result.get(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS), joined == 1);
        } catch (java.util.concurrent.CancellationException e) {
            throw new InterruptedException("the shared call was cancelled");
        } finally {
            f.leave();
        }
    }

    /** Starts {@code key}'s call with {@code work} in the background unless one is in flight already; it runs to its end. */
    public void refresh(String key, Callable<T> work) {
        Flight f = new Flight(key, true);
        if (flying.putIfAbsent(key, f) == null) {
            f.startOnce(work);
        }
    }

    /** Waiters that joined a call already in flight instead of starting their own. */
    public long coalesced() {
        return joined.sum();
    }

    /** Calls in flight now. */
    public int inFlight() {
        return flying.size();
    }
}
