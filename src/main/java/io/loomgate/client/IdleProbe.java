package io.loomgate.client;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLSocket;

/**
 * Whether a pooled connection is still idle: nothing arrived while it waited, not a close, not a
 * stray byte. Over plain HTTP a non-blocking read of the channel tells. Over TLS the bytes on the
 * wire may be a TLS 1.3 session ticket, which the TLS layer takes in without giving the reader
 * anything; a read of at most a millisecond through the TLS socket tells those from a close or
 * stray answer bytes. When nothing is waiting, a non-blocking read can only see a close (-1) or
 * nothing (0); a byte that came in between is consumed and breaks the stream, but the connection is
 * then not reused, which is all this decides.
 */
public final class IdleProbe {

    private IdleProbe() {
    }

    static boolean stillIdle(SocketChannel channel, SSLSocket tls) {
        try {
            if (tls != null && (tls.getInputStream().available() > 0 || channel.socket().getInputStream().available() > 0)) {
                return tlsStillIdle(tls);
            }
            channel.configureBlocking(false);
            try {
                return channel.read(ByteBuffer.allocate(1)) == 0;
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean tlsStillIdle(SSLSocket tls) throws IOException {
        tls.setSoTimeout(1);
        try {
            tls.getInputStream().read();   // a byte no request asked for, or the end of the stream
            return false;
        } catch (SocketTimeoutException onlyTlsMessages) {
            return true;
        } finally {
            tls.setSoTimeout(0);   // the connection's reads are timed by its ReadClock, not the socket
        }
    }
}
