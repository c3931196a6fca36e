package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The lock identical proxied misses wait on, without sockets. */
class CacheLocksTest {

    private static long in(int seconds) {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    }

    private static CompletableFuture<CacheLocks.Turn> waiter(CacheLocks locks, String key) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return locks.take(key, in(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
    }

    @Test
    void theFirstLeadsAndTheOthersAreToldHowItEnded() throws Exception {
        CacheLocks locks = new CacheLocks();
        CacheLocks.Lead lead = assertInstanceOf(CacheLocks.Lead.class, locks.take("k", in(5)));
        var second = waiter(locks, "k");
        Awaitility.await().until(() -> locks.waiting() == 1);
        lead.end(CacheLocks.Ended.STORED);
        lead.end(CacheLocks.Ended.NOT_STORED);   // only the first end counts
        assertEquals(new CacheLocks.Waited(Optional.of(CacheLocks.Ended.STORED)), second.get());
        assertEquals(0, locks.held());
        assertInstanceOf(CacheLocks.Lead.class, locks.take("k", in(5)), "the next miss leads again");
    }

    @Test
    void anAbandonedLockPassesToOneWaiter() throws Exception {
        CacheLocks locks = new CacheLocks();
        CacheLocks.Lead lead = (CacheLocks.Lead) locks.take("k", in(5));
        var a = waiter(locks, "k");
        var b = waiter(locks, "k");
        Awaitility.await().until(() -> locks.waiting() == 2);
        lead.end(CacheLocks.Ended.ABANDONED);
        Awaitility.await().until(() -> a.isDone() || b.isDone());
        CacheLocks.Turn first = a.isDone() ? a.get() : b.get();
        CacheLocks.Lead next = assertInstanceOf(CacheLocks.Lead.class, first, "one waiter takes the lock");
        assertEquals(1, locks.waiting(), "the other waits on for the new holder");
        next.end(CacheLocks.Ended.NOT_STORED);
        CacheLocks.Turn other = a.get() == first ? b.get() : a.get();
        assertEquals(new CacheLocks.Waited(Optional.of(CacheLocks.Ended.NOT_STORED)), other);
        assertEquals(2, locks.waited());
    }

    @Test
    void aWaiterGivesUpAtItsOwnDeadline() throws Exception {
        CacheLocks locks = new CacheLocks();
        locks.take("k", in(5));
        assertEquals(new CacheLocks.Waited(Optional.empty()), locks.take("k", System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)));
        assertInstanceOf(CacheLocks.Lead.class, locks.take("other", in(5)), "keys are locked apart");
    }
}
