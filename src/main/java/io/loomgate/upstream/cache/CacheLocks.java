package io.loomgate.upstream.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Identical proxied misses in flight at once, as nginx's {@code proxy_cache_lock} has them: the first
 * takes the lock and streams its own answer to its own client, storing it as it passes; the others
 * wait, each until its own deadline, for that answer to be stored, and are then served it from the
 * cache. A proxied answer belongs to the client it streams to, so it cannot be shared while it
 * streams as a value call's can ({@link Flights}); what is shared is the one upstream call.
 *
 * <p>How the first ended decides what the waiters do: {@link Ended#STORED}, they are served the
 * stored answer; {@link Ended#NOT_STORED} (the answer may not be stored, or was too large, or the
 * upstream failed), each goes upstream on its own, all at once, as a lock would only queue them;
 * {@link Ended#ABANDONED} (the first's client left, or its stream broke), one of them takes the lock
 * in its place.
 */
public final class CacheLocks {

    /** How the lock's holder ended. */
    public enum Ended { STORED, NOT_STORED, ABANDONED }

    /** What a proxied miss is to do: lead (and end its lead once), or what it waited for. */
    public sealed interface Turn permits Lead, Waited {
    }

    /** This request holds the lock: it goes upstream, and must {@link #end} it once its answer ended. */
    public static final class Lead implements Turn {
        private final ConcurrentHashMap<String, CompletableFuture<Ended>> held;
        private final String key;
        private final CompletableFuture<Ended> ended;

        private Lead(ConcurrentHashMap<String, CompletableFuture<Ended>> held, String key, CompletableFuture<Ended> ended) {
            this.held = held;
            this.key = key;
            this.ended = ended;
        }

        /** Releases the lock, telling the waiters how it ended; only the first call counts. */
        public void end(Ended how) {
            held.remove(key, ended);
            ended.complete(how);
        }
    }

    /**
     * This request waited for another's answer: how that ended, or empty when this request's
     * deadline came first (it goes upstream on its own then, as nginx does at its lock timeout).
     */
    public record Waited(java.util.Optional<Ended> ended) implements Turn {
        /** The answer it waited for was stored: the cache has it now. */
        public boolean stored() {
            return ended.equals(java.util.Optional.of(Ended.STORED));
        }
    }

    private final ConcurrentHashMap<String, CompletableFuture<Ended>> held = new ConcurrentHashMap<>();
    private final LongAdder waited = new LongAdder();
    private final AtomicInteger waiting = new AtomicInteger();

    /**
     * The lock for {@code key}, or a wait for whoever holds it, until {@code deadlineNanos}
     * ({@link System#nanoTime()}). A holder that abandoned its answer hands the lock on to a waiter.
     *
     * @throws InterruptedException when this request is cancelled while it waits
     */
    public Turn take(String key, long deadlineNanos) throws InterruptedException {
        boolean counted = false;
        while (true) {
            CompletableFuture<Ended> mine = new CompletableFuture<>();
            CompletableFuture<Ended> theirs = held.putIfAbsent(key, mine);
            if (theirs == null) {
                return new Lead(held, key, mine);
            }
            if (!counted) {
                waited.increment();
                counted = true;
            }
            waiting.incrementAndGet();
            try {
                Ended how = theirs.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (how != Ended.ABANDONED) {
                    return new Waited(java.util.Optional.of(how));
                }
            } catch (TimeoutException e) {
                return new Waited(java.util.Optional.empty());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);   // a lock is only ever completed with how it ended
            } finally {
                waiting.decrementAndGet();
            }
        }
    }

    /** Requests that waited for another's answer instead of going upstream at once. */
    public long waited() {
        return waited.sum();
    }

    /** Requests waiting now for another's answer. */
    public int waiting() {
        return waiting.get();
    }

    /** Locks held now. */
    public int held() {
        return held.size();
    }
}
