package io.loomgate.edge.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** Connection threads started ahead of need: handed work, topped up, and ended at close. */
class SparesTest {

    private final List<Thread> made = new CopyOnWriteArrayList<>();
    private final ThreadFactory threads = task -> {
        Thread t = Thread.ofVirtual().name("spare").unstarted(task);
        made.add(t);
        return t;
    };
    private final LongAdder started = new LongAdder();

    @Test
    void withNoneParkedHandingSaysNoAndRunsNothing() {
        Spares spares = new Spares(2, threads, started);
        assertFalse(spares.hand(() -> { throw new AssertionError("ran"); }));
        assertEquals(0, started.sum());
    }

    @Test
    void aSpareRunsTheWorkItIsHandedOnItsOwnThreadAndTheTopUpReplacesIt() throws Exception {
        Spares spares = new Spares(3, threads, started);
        spares.topUp();
        assertEquals(3, started.sum(), "three started ahead of need");
        await().atMost(Duration.ofSeconds(30)).until(() -> spares.parked() == 3);

        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(spares.hand(() -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
        }));
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        assertTrue(made.contains(ranOn.get()), "a spare's thread ran it");
        assertNotSame(Thread.currentThread(), ranOn.get());
        assertEquals("spare", ranOn.get().getName());
        assertEquals(2, spares.parked());

        spares.topUp();
        assertEquals(4, started.sum(), "one more, for the one handed work");
        await().atMost(Duration.ofSeconds(30)).until(() -> spares.parked() == 3);
        ranOn.get().join(Duration.ofSeconds(30));
        assertFalse(ranOn.get().isAlive(), "a spare runs one connection and ends");
    }

    @Test
    void anInterruptDoesNotEndASparesWait() throws Exception {
        Spares spares = new Spares(1, threads, started);
        spares.topUp();
        await().atMost(Duration.ofSeconds(30)).until(() -> spares.parked() == 1);
        Thread spare = made.getFirst();
        spare.interrupt();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(spares.hand(ran::countDown), "still parked, waiting for work");
        assertTrue(ran.await(30, TimeUnit.SECONDS));
    }

    @Test
    void closingEndsEverySpareAndNoneIsStartedOrHandedWorkAfter() throws Exception {
        Spares spares = new Spares(4, threads, started);
        spares.topUp();
        await().atMost(Duration.ofSeconds(30)).until(() -> spares.parked() == 4);
        spares.close();
        for (Thread t : made) {
            t.join(Duration.ofSeconds(30));
            assertFalse(t.isAlive(), t + " ended");
        }
        assertFalse(spares.hand(() -> { throw new AssertionError("ran after close"); }));
        spares.topUp();
        assertEquals(4, started.sum(), "none started once closed");
    }

    @Test
    void aSpareThatFirstRunsAfterTheCloseEndsToo() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadFactory heldBack = task -> threads.newThread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            task.run();
        });
        Spares spares = new Spares(2, heldBack, started);
        spares.topUp();
        spares.close();   // before either spare has run
        release.countDown();
        for (Thread t : made) {
            t.join(Duration.ofSeconds(30));
            assertFalse(t.isAlive(), t + " ended");
        }
        assertEquals(0, spares.parked());
    }
}
