package io.loomgate.edge.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The admission limit as plain logic: no sockets, no server. */
class AdmissionUnitTest {

    @Test
    void admitsUpToTheLimitAndShedsTheRest() {
        Admission a = new Admission(2);
        assertTrue(a.tryEnter());
        assertTrue(a.tryEnter());
        assertFalse(a.tryEnter());
        assertFalse(a.tryEnter());
        assertEquals(2, a.admitted());
        assertEquals(2, a.shed());
        a.exit();
        assertEquals(1, a.admitted());
        assertTrue(a.tryEnter(), "a place freed is a place taken");
        assertEquals(2, a.shed());
    }

    @Test
    void zeroMeansNoLimit() {
        Admission a = new Admission(0);
        for (int i = 0; i < 10_000; i++) {
            assertTrue(a.tryEnter());
        }
        assertEquals(0, a.shed());
        assertEquals(0, a.max());
    }

    @Test
    void underContentionNoMoreThanTheLimitAreEverIn() throws Exception {
        Admission a = new Admission(5);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        AtomicInteger entered = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 2_000; i++) {
                    if (a.tryEnter()) {
                        entered.incrementAndGet();
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        inside.decrementAndGet();
                        a.exit();
                    }
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(mostInside.get() <= 5, "at most 5 inside at once, saw " + mostInside.get());
        assertEquals(0, a.admitted());
        assertEquals(16 * 2_000, entered.get() + a.shed(), "every attempt was admitted or counted as shed");
    }
}
