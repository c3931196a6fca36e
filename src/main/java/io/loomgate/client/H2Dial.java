package io.loomgate.client;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
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
     * The connected socket, its reads untimed; null when the origin is {@code auto} and ALPN chose
     * HTTP/1.1 (that connection is closed).
     *
     * @throws MalformedResponse when an {@code h2} origin's ALPN did not choose h2
     */
    static Socket connect(Origin origin, int connectTimeoutMs) throws IOException {
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.connect(origin.socketAddress(), connectTimeoutMs);
            Socket s = plain;
            if (origin.tls().isPresent()) {
                boolean auto = origin.protocol() == Origin.Protocol.AUTO;
                SSLSocket tls = origin.tls().get().handshake(plain, origin.host(), origin.port(), connectTimeoutMs,
                        auto ? List.of("h2", "http/1.1") : List.of("h2"));
                if (!"h2".equals(tls.getApplicationProtocol())) {
                    tls.close();
                    if (auto) {
                        return null;   // HTTP/1.1 it is
                    }
                    throw new MalformedResponse("the upstream did not choose h2 by ALPN (it chose '" + tls.getApplicationProtocol() + "')");
                }
                s = tls;
            }
            s.setSoTimeout(0);
            return s;
        } catch (SocketTimeoutException e) {
            plain.close();
            throw new Http1Connection.ConnectTimeout();
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }
}
