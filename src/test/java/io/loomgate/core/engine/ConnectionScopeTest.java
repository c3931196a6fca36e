package io.loomgate.core.engine;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The scope an HTTP/2 connection's thread owns: its streams end without waking that thread, which
 * is parked in a socket read, and closing it ends every stream.
 */
class ConnectionScopeTest {

    @Test
    void theLastStreamToEndLeavesTheConnectionsThreadParked() throws Exception {
        AtomicReference<Thread> stream = new AtomicReference<>();
        CountDownLatch streamMayEnd = new CountDownLatch(1);
        AtomicBoolean unparkedByTheTest = new AtomicBoolean();
        AtomicReference<Boolean> parkEndedByTheTest = new AtomicReference<>();
        // A platform thread, which waits for the stream by spinning: parking would use up a permit the
        // stream's end may leave, which is what this test looks for.
        Thread owner = Thread.ofPlatform().start(() -> {
            try (ConnectionScope scope = ConnectionScope.open("test", new LongAdder())) {
                scope.fork(() -> {
                    stream.set(Thread.currentThread());
                    try {
                        streamMayEnd.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                while (stream.get() == null) {
                    Thread.onSpinWait();
                }
                streamMayEnd.countDown();
                while (stream.get().isAlive()) {
                    Thread.onSpinWait();
                }
                LockSupport.park();   // as a connection's read parks; at once if the stream's end unparked it
                parkEndedByTheTest.set(unparkedByTheTest.get());
            }
        });
        await().atMost(Duration.ofMinutes(1))
                .until(() -> owner.getState() == Thread.State.WAITING || parkEndedByTheTest.get() != null);
        unparkedByTheTest.set(true);
        LockSupport.unpark(owner);
        owner.join();
        assertEquals(Boolean.TRUE, parkEndedByTheTest.get(),
                "the connection's thread woke when its only stream ended, before anything else woke it");
    }

    @Test
    void closingInterruptsTheStreamsStillRunningAndWaitsForThem() throws InterruptedException {
        LongAdder started = new LongAdder();
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicReference<Thread> stream = new AtomicReference<>();
        try (ConnectionScope scope = ConnectionScope.open("test", started)) {
            scope.fork(() -> {
                stream.set(Thread.currentThread());
                running.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
            });
            running.await();
        }
        assertTrue(interrupted.get(), "the stream still running was interrupted");
        assertFalse(stream.get().isAlive(), "close waited for the stream to end");
        assertEquals(2, started.sum(), "one thread for the stream and one for the keeper");
    }
}
