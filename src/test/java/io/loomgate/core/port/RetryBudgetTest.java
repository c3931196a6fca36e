package io.loomgate.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The retry and hedge budget on a fake clock: a share of first tries, and a floor per second. */
class RetryBudgetTest {

    private final AtomicLong now = new AtomicLong(1_000);

    private int spendAll(RetryBudget b) {
        int n = 0;
        while (b.trySpend()) {
            n++;
        }
        return n;
    }

    @Test
    void aShareOfFirstTriesWithoutAFloor() {
        RetryBudget b = new RetryBudget(0.25, 0, now::get);
        assertFalse(b.trySpend(), "nothing is saved at start");
        for (int i = 0; i < 12; i++) {
            b.firstTrySent();
        }
        assertEquals(3, spendAll(b));
    }

    @Test
    void theFloorPaysWhenTheShareHasNothingAndRefillsWithTime() {
        RetryBudget b = new RetryBudget(0.01, 2, now::get);
        assertEquals(2, spendAll(b), "a second's worth of floor at start");
        now.addAndGet(250_000_000);
        assertFalse(b.trySpend(), "a quarter second refills half a copy");
        now.addAndGet(250_000_000);
        assertTrue(b.trySpend(), "half a second refills one");
        now.addAndGet(60_000_000_000L);
        assertEquals(2, spendAll(b), "a quiet minute saves no more than a second's worth");
    }

    @Test
    void theShareAllowsItsPartOfFirstTriesAndNoMore() {
        RetryBudget b = new RetryBudget(0.05, 0, now::get);
        int allowed = 0;
        for (int i = 0; i < 1000; i++) {
            b.firstTrySent();
            allowed += b.trySpend() ? 1 : 0;
        }
        assertEquals(50, allowed);
    }

    @Test
    void aShareOfOneAllowsACopyOfEveryRequest() {
        RetryBudget b = new RetryBudget(1, 0, now::get);
        for (int i = 0; i < 100; i++) {
            b.firstTrySent();
            assertTrue(b.trySpend());
        }
    }

    @Test
    void savedCreditStandsForTheLastTenSecondsOfFirstTriesAndNoMore() {
        RetryBudget b = new RetryBudget(1, 0, now::get);
        for (int second = 0; second < 15; second++) {
            for (int i = 0; i < 100; i++) {
                b.firstTrySent();
            }
            now.addAndGet(1_000_000_000L);
        }
        now.addAndGet(-500_000_000L);   // back within the 15th second
        assertEquals(10 * 100, spendAll(b), "the last ten seconds' 1,000 first tries, not all 1,500");
    }

    @Test
    void aQuietSpellForgetsTheCreditOfBusyOne() {
        RetryBudget b = new RetryBudget(1, 0, now::get);
        for (int i = 0; i < 500; i++) {
            b.firstTrySent();
        }
        now.addAndGet(60_000_000_000L);   // a quiet minute
        b.firstTrySent();
        assertEquals(1, spendAll(b), "one first try in the window: one copy, not 501");
    }

    @Test
    void aBurstOfFailuresAsLargeAsTheLastSecondsAllowIsRetried() {
        RetryBudget b = new RetryBudget(0.2, 0, now::get);
        for (int second = 0; second < 10; second++) {
            for (int i = 0; i < 3000; i++) {   // 3,000 first tries a second
                b.firstTrySent();
            }
            now.addAndGet(999_000_000L);
        }
        assertEquals(6000, spendAll(b), "a replica dying with hundreds of calls in flight: 20% of ten seconds of them");
    }
}
