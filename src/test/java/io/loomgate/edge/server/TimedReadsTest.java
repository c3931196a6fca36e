package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The race between a read's end and the watchdog's tick, played out in order without sockets: the
 * read returns bytes just as the tick finds it too old and closes its connection. The bytes must not
 * be served. They were once (2026-11-28): a request head read from a socket already closed ran its
 * exchange, and the hang-up watch then read the closed socket in a loop that never parked, which held
 * both carriers of a 2-core machine and wedged the server.
 */
class TimedReadsTest {

    private static final long HOUR = Duration.ofHours(1).toNanos();

    /** A stream whose read, before returning its bytes, lets {@code during} run: the tick, at that moment. */
    private static InputStream returningAfter(Runnable during) {
        return new InputStream() {
            @Override
            public int read() {
                throw new UnsupportedOperationException("reads go through read(byte[], int, int)");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                during.run();
                b[off] = 'G';
                return 1;
            }
        };
    }

    @Test
    void bytesThatCameAsTheTickTimedTheReadOutAreATimeout() {
        TimedReads reads = new TimedReads();
        reads.set(TimedReads.NO_DEADLINE, Duration.ofSeconds(5));
        boolean[] closed = {false};
        InputStream in = returningAfter(() -> closed[0] = reads.expired(System.nanoTime() + HOUR));
        assertThrows(SocketTimeoutException.class, () -> reads.read(in, new byte[8], 0, 8));
        assertEquals(true, closed[0], "the tick took the read, and its caller closes the connection");
    }

    @Test
    void aReadThatEndsBeforeTheTickReturnsItsBytesAndIsNotTimedOut() throws Exception {
        TimedReads reads = new TimedReads();
        reads.set(TimedReads.NO_DEADLINE, Duration.ofSeconds(5));
        assertEquals(1, reads.read(returningAfter(() -> { }), new byte[8], 0, 8));
        assertEquals(false, reads.expired(System.nanoTime() + HOUR), "no read in progress");
    }

    @Test
    void aHeldReadIsNotTakenWhileItsExchangeRuns() throws Exception {
        TimedReads reads = new TimedReads();
        reads.set(TimedReads.NO_DEADLINE, Duration.ofSeconds(5));
        reads.hold();
        boolean[] closed = {true};
        assertEquals(1, reads.read(returningAfter(() -> closed[0] = reads.expired(System.nanoTime() + HOUR)), new byte[8], 0, 8));
        assertEquals(false, closed[0]);
    }
}
