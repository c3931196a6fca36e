package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The connection's side of a late hang-up watch, without sockets: the watchdog's tick hands the
 * watch to a starter the test holds back, as a busy scheduler holds back a thread submitted from
 * outside it. The exchange then ends, and the connection must go on without waiting for it.
 */
class ClientWatchTest {

    private static final long AFTER = ClientWatch.AFTER.toNanos();

    @Test
    void anExchangeThatEndsBeforeItsLateWatchRunsGoesOnAndTheWatchNeverRuns() throws Exception {
        List<Runnable> held = new CopyOnWriteArrayList<>();
        LongAdder started = new LongAdder();
        // No connection: a watch that ran would fail on it, which the held thread below would report.
        ClientWatch watch = new ClientWatch(null, started, held::add);

        watch.arm(0);
        watch.tick(AFTER - 1);
        assertEquals(List.of(), held, "no watch before the exchange has run " + ClientWatch.AFTER.toMillis() + " ms");
        watch.tick(AFTER);
        assertEquals(1, held.size(), "the tick handed a watch to its thread");
        assertEquals(1, started.sum());

        Thread connection = Thread.ofPlatform().daemon(true).start(watch::disarm);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !connection.isAlive());

        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread late = Thread.ofPlatform().uncaughtExceptionHandler((t, e) -> failures.add(e)).start(held.get(0));
        late.join();
        assertEquals(List.of(), failures, "the watch, called off, did not touch the connection");

        watch.arm(AFTER);
        watch.tick(AFTER + AFTER);
        assertEquals(2, held.size(), "the next exchange gets a watch of its own");
    }
}
