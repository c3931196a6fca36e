package io.loomgate.edge.server;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A connection's watch for a client that hangs up while its request runs: a read of the socket once
 * the request's body is read, the same read that then waits for the next request. Where it runs
 * depends on where the exchange does. One that another thread runs is watched on the connection's
 * own thread at once ({@link #watch}). One that runs on the connection's thread
 * ({@link InlineExecutor}) cannot be, so a virtual thread of its own reads instead, but only once
 * the exchange has run for {@link #AFTER}: most end before that, and cost the watch nothing. The
 * write watchdog's tick (every 100 ms) starts it ({@link #tick}), so a client that hangs up is
 * noticed at most {@code AFTER} plus a tick after its request began, and at once after that. A watch
 * whose thread has not yet run when the exchange ends is called off ({@link LateWatch}).
 */
final class ClientWatch {

    /** How long an exchange on the connection's thread runs before a watch for its client's hang-up starts. */
    static final Duration AFTER = Duration.ofMillis(100);

    private static final int OFF = 0;
    private static final int ARMED = 1;
    private static final int STARTED = 2;

    /** How a late watch gets its thread: a virtual thread of its own. */
    private static final Executor VIRTUAL = watch -> Thread.ofVirtual().name("loomgate-client-watch").start(watch);

    private final Connection connection;
    private final LongAdder threadsStarted;
    private final Executor starter;
    private final AtomicInteger state = new AtomicInteger(OFF);
    private volatile long armedAt;
    /** The late watch handed to a thread for this exchange; null while none has been. */
    private volatile LateWatch late;

    ClientWatch(Connection connection, LongAdder threadsStarted) {
        this(connection, threadsStarted, VIRTUAL);
    }

    /** With {@code starter} giving each late watch its thread (a test holds it back). */
    ClientWatch(Connection connection, LongAdder threadsStarted, Executor starter) {
        this.connection = connection;
        this.threadsStarted = threadsStarted;
        this.starter = starter;
    }

    /** An exchange starts on the connection's thread. */
    void arm(long nowNanos) {
        late = null;
        armedAt = nowNanos;
        state.set(ARMED);
    }

    /** The watchdog's tick: starts the late watch for an exchange that has run for {@link #AFTER}. */
    void tick(long nowNanos) {
        if (state.get() != ARMED || nowNanos - armedAt < AFTER.toNanos()) {
            return;
        }
        LateWatch watch = new LateWatch(this::watchLate);
        late = watch;   // before the state says STARTED, so disarm finds it
        if (state.compareAndSet(ARMED, STARTED)) {
            starter.execute(watch);
            threadsStarted.increment();
        }
    }

    /**
     * The exchange on the connection's thread ended: no late watch starts from now on; one handed to
     * a thread that has not yet run it is called off, and one that began is waited for. That one ends
     * at the next request's first byte (kept for the connection's thread), at the client's close, or
     * after the idle timeout.
     */
    void disarm() {
        if (!state.compareAndSet(ARMED, OFF)) {
            LateWatch started = late;
            if (started != null) {
                started.callOffOrAwait();
            }
            state.set(OFF);
        }
    }

    private void watchLate() {
        if (watchable()) {
            connection.input.release();   // its body is read: the buffer goes back unless it holds the next request's bytes
            watch();
        }
    }

    /** Whether the exchange, once its body is read, still runs and may keep the connection; in a frame of its own. */
    private boolean watchable() {
        ServerExchange x = connection.watched();
        if (x == null) {
            return false;
        }
        x.awaitBodyOrEnd();
        return !x.ended() && x.keepsConnection() && !x.head().upgrade();
    }

    /**
     * The read, with no byte of the request left to read. It ends with bytes of the next request
     * (kept, and read once this one is answered); at the client's close (a request still running is
     * cancelled); or after the idle timeout with the exchange over (the connection closes, idle).
     * Nothing has to wake it when the exchange ends.
     */
    void watch() {
        connection.reads.hold();
        if (watchedEnded()) {   // it ended before the hold: exchangeEnded's release may have come first
            connection.reads.release(System.nanoTime());
        }
        try {
            readUntilNextOrGone();
        } finally {
            connection.reads.release(System.nanoTime());
        }
    }

    /**
     * One read, never a loop: a read that fails leaves the socket closed, and reading a closed socket
     * again fails at once without parking, so a loop would hold its carrier for as long as the
     * exchange runs (it did: see {@link io.loomgate.net.ReadClock}). A timeout is the idle timeout
     * after the exchange ended (the read is held while it runs); should one come while it still runs,
     * its connection is gone all the same and the exchange is cancelled like a hang-up's.
     */
    private void readUntilNextOrGone() {
        try {
            if (!connection.input.awaitByte()) {
                connection.clientGone();
            }
        } catch (SocketTimeoutException idle) {
            if (watchedEnded()) {
                connection.close();
            } else {
                connection.clientGone();
            }
        } catch (IOException e) {
            connection.clientGone();
        }
    }

    /** Whether the watched exchange is over; read in a frame of its own, so the watch's frame never holds it. */
    private boolean watchedEnded() {
        ServerExchange x = connection.watched();
        return x == null || x.ended();
    }
}
