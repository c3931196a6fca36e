package io.loomgate.client;

import io.loomgate.net.IoWatchdog;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLSocket;

/** A new connection to an HTTP/1.1 upstream: TCP (no delay), and for {@code https://} the TLS handshake. */
final class Http1Dial {

    private Http1Dial() {
    }

    /** Connects, and for an {@code https://} origin runs the TLS handshake, each within {@code connectTimeoutMs}. */
    static Http1Connection open(Origin origin, int connectTimeoutMs, IoWatchdog watchdog) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().setTcpNoDelay(true);
            ch.socket().connect(origin.socketAddress(), connectTimeoutMs);
            SSLSocket tls = origin.tls().isEmpty() ? null
                    : origin.tls().get().handshake(ch.socket(), origin.host(), origin.port(), connectTimeoutMs);
            return new Http1Connection(ch, tls, origin.key(), watchdog);
        } catch (SocketTimeoutException e) {
            ch.close();
            throw new ConnectTimeout();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }
}
