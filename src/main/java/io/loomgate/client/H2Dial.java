package io.loomgate.client;

import io.loomgate.net.IoWatchdog;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.util.List;
import javax.net.ssl.SSLSocket;

/**
 * A connection to an HTTP/2 upstream, before its preface: TCP (no delay), and over TLS the handshake
 * with ALPN offering {@code h2} (and {@code http/1.1} for {@code auto}).
 */
final class H2Dial {

    private H2Dial() {
    }

    /**
     * The connected socket, its reads untimed.
     *
     * @throws H2Client.NotChosen when the origin is {@code auto} and ALPN chose HTTP/1.1: it carries the
     *                            connection, handshaken, for the request to go over HTTP/1.1
     * @throws MalformedResponse  when an {@code h2} origin's ALPN did not choose h2
     */
    static Socket connect(Origin origin, int connectTimeoutMs, IoWatchdog watchdog) throws IOException {
        SocketChannel channel = SocketChannel.open();   // a channel, so a connection ALPN gives to HTTP/1.1 can be probed when idle
        try {
            Socket plain = channel.socket();
            plain.setTcpNoDelay(true);
            plain.connect(origin.socketAddress(), connectTimeoutMs);
            Socket s = plain;
            if (origin.tls().isPresent()) {
                boolean auto = origin.protocol() == Origin.Protocol.AUTO;
                SSLSocket tls = origin.tls().get().handshake(plain, origin.host(), origin.port(), connectTimeoutMs,
                        auto ? List.of("h2", "http/1.1") : List.of("h2"));
                String chosen = tls.getApplicationProtocol();
                if (!"h2".equals(chosen)) {
                    if (auto) {
                        throw new H2Client.NotChosen(origin.key() + " chose HTTP/1.1 by ALPN",
                                new Http1Connection(channel, tls, origin.key(), watchdog));
                    }
                    tls.close();
                    throw new MalformedResponse("the upstream did not choose h2 by ALPN (it chose '" + chosen + "')");
                }
                s = tls;
            }
            s.setSoTimeout(0);
            return s;
        } catch (H2Client.NotChosen e) {
            throw e;
        } catch (SocketTimeoutException e) {
            channel.close();
            throw new ConnectTimeout();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }
}
