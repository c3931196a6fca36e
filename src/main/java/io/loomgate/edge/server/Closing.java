package io.loomgate.edge.server;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;

/** How a connection ends: nginx's lingering close after a refusal, and a close that asks nothing. */
final class Closing {

    /** How long a closing connection's remaining bytes are read and dropped before the close. */
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);

    private Closing() {
    }

    /**
     * nginx's lingering close: after a refusal, or an answer that closes the connection, this side is
     * shut and what the client still sends (the rest of a body it was told it need not send) is read
     * and dropped, for at most {@link #LINGER_NANOS} in all and until the client closes. Closed at
     * once, a socket with unread bytes resets the connection, and the reset can destroy the answer
     * before the client reads it.
     */
    static void linger(Socket socket, Connection connection) throws IOException {
        if (socket instanceof SSLSocket) {
            return;   // TLS has no half-close: the close_notify ends both ways
        }
        if (!socket.isOutputShutdown()) {
            socket.shutdownOutput();
        }
        connection.reads.set(System.nanoTime() + LINGER_NANOS, Duration.ofNanos(LINGER_NANOS));
        byte[] scratch = new byte[8192];
        try {
            while (connection.input.read(scratch, 0, scratch.length) >= 0) {
                // dropped
            }
        } catch (IOException enough) {
            // the moment passed, or the client reset: either way we are done
        }
    }

    /** Closes {@code c}, if there is one, and ignores how that went: closing is all that was wanted. */
    static void quietly(Closeable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
