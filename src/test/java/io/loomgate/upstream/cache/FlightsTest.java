package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Shared calls: one call for many waiters, owned by them together, stopped when the last one leaves. */
class FlightsTest {

    private static long in(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    @Test
    void manyWaitersShareOneCall() throws Exception {
        Flights<String> flights = new Flights<>("test");
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        List<Future<String>> waiters = new ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 100; i++) {
                waiters.add(pool.submit(() -> flights.await("k", () -> {
                    calls.incrementAndGet();
                    release.await();
                    return "v";
                }, in(Duration.ofSeconds(30))).value()));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> flights.coalesced() == 99);
            release.countDown();
            for (Future<String> w : waiters) {
                assertEquals("v", w.get());
            }
        }
        assertEquals(1, calls.get());
        assertEquals(0, flights.inFlight());
    }

    @Test
    void theCallGoesOnWhenItsStarterLeavesAndStopsWhenTheLastWaiterDoes() throws Exception {
        Flights<String> flights = new Flights<>("test");
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Thread> caller = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread first = Thread.ofVirtual().start(() -> {
            try {
                flights.await("k", () -> {
                    caller.set(Thread.currentThread());
                    started.countDown();
                    try {
                        Thread.sleep(Duration.ofMinutes(1));
                    } catch (InterruptedException e) {
                        stopped.countDown();   // what an upstream exchange does: its connection closes
                        throw e;
                    }
                    return "v";
                }, in(Duration.ofMinutes(1)));
            } catch (Exception expected) {
                // interrupted below
            }
        });
        started.await();
        AtomicReference<Exception> second = new AtomicReference<>();
        Thread other = Thread.ofVirtual().start(() -> {
            try {
                flights.await("k", () -> "never runs", in(Duration.ofMillis(300)));
            } catch (Exception e) {
                second.set(e);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> flights.coalesced() == 1);
        first.interrupt();   // the request that started it is cancelled
        first.join();
        assertEquals(1, stopped.getCount(), "the call goes on while another waits");
        assertTrue(caller.get().isAlive());
        other.join();   // the other's own deadline passes: the last waiter leaves
        assertTrue(second.get() instanceof TimeoutException, String.valueOf(second.get()));
        assertTrue(stopped.await(10, java.util.concurrent.TimeUnit.SECONDS), "no one waits: the call is stopped");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> flights.inFlight() == 0);
    }

    @Test
    void aFailureReachesTheWaitersAndTheNextCallStartsAfresh() throws Exception {
        Flights<String> flights = new Flights<>("test");
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> flights.await("k", () -> {
                    throw new IllegalStateException("upstream down");
                }, in(Duration.ofSeconds(10))));
        assertEquals("upstream down", e.getCause().getMessage());
        Flights.Result<String> again = flights.await("k", () -> "again", in(Duration.ofSeconds(10)));
        assertEquals("again", again.value());
        assertTrue(!again.joined(), "it started its own");
    }

    @Test
    void aBackgroundRefreshRunsToItsEndAndOnlyOneAtATime() throws Exception {
        Flights<String> flights = new Flights<>("test");
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 5; i++) {
            flights.refresh("k", () -> {
                runs.incrementAndGet();
                release.await();
                return "v";
            });
        }
        assertEquals(1, flights.inFlight());
        release.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> flights.inFlight() == 0);
        assertEquals(1, runs.get());
    }
}
