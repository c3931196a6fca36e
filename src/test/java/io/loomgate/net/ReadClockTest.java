package io.loomgate.net;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/** When a read has waited too long, without sockets: the times are given, not measured. */
class ReadClockTest {

    private static final long MS = 1_000_000L;

    @Test
    void noReadInProgressNeverExpires() {
        ReadClock clock = new ReadClock();
        long now = System.nanoTime();
        assertFalse(clock.expired(now + 3_600_000 * MS, 100 * MS, now));
        clock.reading();
        clock.done();
        assertFalse(clock.expired(now + 3_600_000 * MS, 100 * MS, now));
        assertFalse(clock.timedOut());
    }

    @Test
    void aReadExpiresAfterItsWaitOrAtTheDeadlineWhicheverComesFirst() {
        ReadClock waits = new ReadClock();
        waits.reading();
        long start = System.nanoTime();
        assertFalse(waits.expired(start - MS, 100 * MS, ReadClock.NO_DEADLINE));
        assertTrue(waits.expired(start + 101 * MS, 100 * MS, ReadClock.NO_DEADLINE));
        assertTrue(waits.timedOut());

        ReadClock deadline = new ReadClock();
        deadline.reading();
        long begun = System.nanoTime();
        assertFalse(deadline.expired(begun, 100 * MS, begun + 50 * MS));
        assertTrue(deadline.expired(begun + 50 * MS, 100 * MS, begun + 50 * MS), "the deadline comes before the wait's end");
    }

    @Test
    void noLimitPerReadLeavesOnlyTheDeadline() {
        ReadClock clock = new ReadClock();
        clock.reading();
        long now = System.nanoTime();
        assertFalse(clock.expired(now + 3_600_000 * MS, 0, ReadClock.NO_DEADLINE));
        assertTrue(clock.expired(now + 10 * MS, 0, now + 5 * MS));
    }

    @Test
    void aRestartCountsTheWaitFromThen() {
        ReadClock clock = new ReadClock();
        clock.reading();
        long later = System.nanoTime() + 1_000 * MS;
        clock.restart(later);
        assertFalse(clock.expired(later + 99 * MS, 100 * MS, ReadClock.NO_DEADLINE), "counted from the restart");
        assertTrue(clock.expired(later + 100 * MS, 100 * MS, ReadClock.NO_DEADLINE));
    }

    @Test
    void aRestartWithNoReadInProgressStartsNone() {
        ReadClock clock = new ReadClock();
        clock.restart(System.nanoTime());
        assertFalse(clock.expired(System.nanoTime() + 3_600_000 * MS, 100 * MS, ReadClock.NO_DEADLINE));
    }

    @Test
    void aFailedReadIsATimeoutOnlyIfItWasTimedOut() {
        ReadClock clock = new ReadClock();
        IOException closed = new SocketException("Socket closed");
        assertSame(closed, clock.failure(closed, "waited too long"));
        clock.reading();
        clock.expired(System.nanoTime() + 200 * MS, 100 * MS, ReadClock.NO_DEADLINE);
        IOException failure = clock.failure(closed, "waited too long");
        assertInstanceOf(SocketTimeoutException.class, failure);
        assertSame(closed, failure.getSuppressed()[0]);
    }

    @Test
    void aReadTheTickTookHasTimedOutEvenIfItReturnedBytes() {
        ReadClock clock = new ReadClock();
        clock.reading();
        assertTrue(clock.expired(System.nanoTime() + 200 * MS, 100 * MS, ReadClock.NO_DEADLINE));
        assertFalse(clock.expired(System.nanoTime() + 300 * MS, 100 * MS, ReadClock.NO_DEADLINE), "taken once");
        assertFalse(clock.done(), "the tick took it: its bytes came too late");
    }

    @Test
    void aReadThatEndedBeforeTheTickIsNotTaken() {
        ReadClock clock = new ReadClock();
        clock.reading();
        assertTrue(clock.done());
        assertFalse(clock.expired(System.nanoTime() + 3_600_000 * MS, 100 * MS, ReadClock.NO_DEADLINE));
        assertFalse(clock.timedOut());
    }
}
