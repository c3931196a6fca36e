package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The server side of a TLS handshake over an accepted socket, configured as the JDK's HTTPS server
 * configures its engine: the {@link HttpsConfigurator}'s {@code configure} sees the client's address
 * and sets the parameters (loomgate's: TLS 1.2 and 1.3, its suites, no client renegotiation).
 */
final class Handshake {

    private Handshake() {
    }

    /**
     * @param deadlineNanos the handshake must end by then ({@link System#nanoTime()}), with the request's head
     * @throws SocketTimeoutException when it takes longer
     */
    static SSLSocket run(Socket raw, HttpsConfigurator configurator, long deadlineNanos) throws IOException {
        InetSocketAddress client = (InetSocketAddress) raw.getRemoteSocketAddress();
        SSLSocket tls = (SSLSocket) configurator.getSSLContext().getSocketFactory()
                .createSocket(raw, client.getHostString(), client.getPort(), true);
        tls.setUseClientMode(false);
        Parameters params = new Parameters(configurator, client);
        configurator.configure(params);
        if (params.ssl != null) {
            tls.setSSLParameters(params.ssl);
        } else {
            if (params.getCipherSuites() != null) {
                tls.setEnabledCipherSuites(params.getCipherSuites());
            }
            if (params.getProtocols() != null) {
                tls.setEnabledProtocols(params.getProtocols());
            }
            tls.setNeedClientAuth(params.getNeedClientAuth());
            if (!params.getNeedClientAuth()) {
                tls.setWantClientAuth(params.getWantClientAuth());
            }
        }
        SSLParameters alpn = tls.getSSLParameters();
        if (alpn.getApplicationProtocols().length == 0) {
            alpn.setApplicationProtocols(new String[] {"h2", "http/1.1"});   // ALPN: a client that offers h2 gets it
            tls.setSSLParameters(alpn);
        }
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("the read timeout passed before the handshake");
        }
        tls.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        tls.startHandshake();
        return tls;
    }

    /** What {@link HttpsConfigurator#configure} is given, as the API defines it. */
    private static final class Parameters extends HttpsParameters {
        private final HttpsConfigurator configurator;
        private final InetSocketAddress client;
        private SSLParameters ssl;

        Parameters(HttpsConfigurator configurator, InetSocketAddress client) {
            this.configurator = configurator;
            this.client = client;
        }

        @Override
        public HttpsConfigurator getHttpsConfigurator() {
            return configurator;
        }

        @Override
        public InetSocketAddress getClientAddress() {
            return client;
        }

        @Override
        public void setSSLParameters(SSLParameters params) {
            this.ssl = params;
        }
    }
}
