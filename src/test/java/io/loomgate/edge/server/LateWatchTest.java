package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A late hang-up watch against the end of its exchange, without sockets: the thread it was handed to
 * runs it when the test says so. A watch its thread has not begun is called off and never runs, so
 * the connection's thread does not wait for a thread the scheduler has not yet run (it waited seconds
 * under load); one that has begun is waited for, since it may be reading the socket.
 */
class LateWatchTest {

    @Test
    void aWatchNotYetRunIsCalledOffAndNeverRunsWhenItsThreadComes() {
        AtomicBoolean ran = new AtomicBoolean();
        LateWatch watch = new LateWatch(() -> ran.set(true));

        AtomicBoolean calledOff = new AtomicBoolean();
        Thread connection = Thread.ofPlatform().daemon(true).start(() -> calledOff.set(watch.callOffOrAwait()));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !connection.isAlive());
        assertTrue(calledOff.get(), "called off: its thread had not begun");
        watch.run();   // its thread, at last

        assertFalse(ran.get(), "a watch called off never touches the connection");
    }

    @Test
    void aWatchThatBeganIsWaitedForUntilItEnds() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch letEnd = new CountDownLatch(1);
        LateWatch watch = new LateWatch(() -> {
            inside.countDown();
            Latches.awaitUninterruptibly(letEnd);
            events.add("watch ended");
        });
        Thread runner = Thread.ofPlatform().start(watch);
        inside.await();

        AtomicBoolean calledOff = new AtomicBoolean(true);
        Thread connection = Thread.ofPlatform().start(() -> {
            calledOff.set(watch.callOffOrAwait());
            events.add("connection went on");
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> connection.getState() == Thread.State.WAITING);
        assertEquals(List.of(), events, "the connection's thread waits while the watch runs");

        letEnd.countDown();
        connection.join();
        runner.join();
        assertFalse(calledOff.get(), "a watch that began is not called off");
        assertEquals(List.of("watch ended", "connection went on"), events);
    }

    @Test
    void eitherTheWatchRunsOrItIsCalledOffNeverBothNorNeither() throws Exception {
        for (int i = 0; i < 1_000; i++) {
            AtomicInteger runs = new AtomicInteger();
            LateWatch watch = new LateWatch(runs::incrementAndGet);
            CountDownLatch go = new CountDownLatch(1);
            Thread runner = Thread.ofPlatform().start(() -> {
                Latches.awaitUninterruptibly(go);
                watch.run();
            });
            go.countDown();
            boolean calledOff = watch.callOffOrAwait();
            if (!calledOff) {
                assertEquals(1, runs.get(), "the watch ran, and had ended when the connection went on (round " + i + ")");
            }
            runner.join();
            assertEquals(calledOff ? 0 : 1, runs.get(), "round " + i);
        }
    }
}
