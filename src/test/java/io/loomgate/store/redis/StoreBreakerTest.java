package io.loomgate.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When the Redis breaker opens, and how it closes again, on a clock the test moves. */
class StoreBreakerTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<String> changes = new ArrayList<>();
    private final StoreBreaker breaker = new StoreBreaker(3, Duration.ofSeconds(1), clock::get,
            (from, to, why) -> changes.add(from.wire() + ">" + to.wire()));

    private void ms(long n) {
        clock.addAndGet(n * 1_000_000L);
    }

    @Test
    void aRedisThatAnswersNothingForASecondOpensItAfterThreeFailures() throws StoreException {
        breaker.succeeded(breaker.admit());
        ms(1500);
        breaker.failed(breaker.admit(), "refused");
        breaker.failed(breaker.admit(), "refused");
        assertEquals(StoreBreaker.State.CLOSED, breaker.state());
        breaker.failed(breaker.admit(), "refused");
        assertEquals(StoreBreaker.State.OPEN, breaker.state());
        assertEquals(StoreException.Kind.OPEN, assertThrows(StoreException.class, breaker::admit).kind(), "not asked while open");
        assertEquals(List.of("closed>open"), changes);
    }

    @Test
    void aBurstOfTimeoutsAmongSuccessesLeavesItClosed() throws StoreException {
        for (int i = 0; i < 100; i++) {
            breaker.succeeded(breaker.admit());
        }
        for (int i = 0; i < 60; i++) {   // a pause: every command in flight timed out at once
            breaker.failed(breaker.admit(), "timeout");
        }
        assertEquals(StoreBreaker.State.CLOSED, breaker.state(), "most of the second's commands succeeded");
        ms(1100);
        breaker.failed(breaker.admit(), "timeout");
        assertEquals(StoreBreaker.State.OPEN, breaker.state(), "then a second with no success");
    }

    @Test
    void mostOfASecondsCommandsFailingOpensIt() throws StoreException {
        for (int i = 0; i < 10; i++) {
            breaker.succeeded(breaker.admit());
        }
        for (int i = 0; i < StoreBreaker.WINDOW_FAILURES - 1; i++) {
            breaker.failed(breaker.admit(), "timeout");
        }
        assertEquals(StoreBreaker.State.CLOSED, breaker.state());
        breaker.failed(breaker.admit(), "timeout");
        assertEquals(StoreBreaker.State.OPEN, breaker.state(), "20 failures against 10 successes");
    }

    @Test
    void afterTheCoolDownOneProbeClosesItOrOpensItAgain() throws StoreException {
        ms(1100);
        for (int i = 0; i < 3; i++) {
            breaker.failed(breaker.admit(), "refused");
        }
        ms(1000);
        boolean probe = breaker.admit();
        assertTrue(probe);
        assertEquals(StoreException.Kind.OPEN, assertThrows(StoreException.class, breaker::admit).kind(), "one probe at a time");
        breaker.failed(true, "refused");
        assertEquals(StoreBreaker.State.OPEN, breaker.state());
        ms(1000);
        breaker.succeeded(breaker.admit());
        assertEquals(StoreBreaker.State.CLOSED, breaker.state());
        assertFalse(breaker.admit());
        assertEquals(List.of("closed>open", "open>half-open", "half-open>open", "open>half-open", "half-open>closed"), changes);
        assertEquals(2, breaker.opened());
    }
}
