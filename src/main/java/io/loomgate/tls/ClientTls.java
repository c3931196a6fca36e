package io.loomgate.tls;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS to an {@code https://} upstream: whom it trusts (the JDK's CA certificates, or only those of
 * a {@code caFile}), and the handshake on a connected socket, which sends SNI and verifies that the
 * certificate names the host, as a browser would. TLS 1.2 and 1.3 only.
 *
 * <pre>{@code
 * ClientTls tls = ClientTls.trusting(Optional.of(Path.of("ca.pem")));
 * SSLSocket s = tls.handshake(plainSocket, "orders.internal", 443, 5_000);
 * }</pre>
 */
public final class ClientTls {

    private static final ClientTls JDK_DEFAULTS = new ClientTls(defaultContext(), "jdk");

    private final SSLContext context;
    private final String trust;

    private ClientTls(SSLContext context, String trust) {
        this.context = context;
        this.trust = trust;
    }

    /**
     * @param caFile PEM certificates to trust instead of the JDK's; empty for the JDK's own
     * @throws TlsException when the file holds no usable certificate
     */
    public static ClientTls trusting(Optional<Path> caFile) throws TlsException {
        if (caFile.isEmpty()) {
            return JDK_DEFAULTS;
        }
        List<X509Certificate> cas = PemFiles.certificates(caFile.get());
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return new ClientTls(context, caFile.get().toString());
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsException(caFile.get() + ": cannot be used to trust servers (" + e.getMessage() + ")");
        }
    }

    private static SSLContext defaultContext() {
        try {
            return SSLContext.getDefault();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no default TLS context", e);
        }
    }

    /** What it trusts, for telling pooled connections apart: {@code jdk}, or the CA file. */
    public String trust() {
        return trust;
    }

    /**
     * Runs the TLS handshake over {@code plain}, already connected to {@code host}; closing the
     * returned socket closes {@code plain}.
     *
     * @param timeoutMs the longest the handshake may wait for any one read
     * @throws IOException when the handshake fails: the certificate is not trusted, does not name
     *                     {@code host}, has expired, or the server does not speak TLS
     */
    public SSLSocket handshake(Socket plain, String host, int port, int timeoutMs) throws IOException {
        return handshake(plain, host, port, timeoutMs, List.of());
    }

    /** The same, offering {@code alpn} (in order of preference; none: no ALPN); the server's choice is the socket's {@code getApplicationProtocol()}. */
    public SSLSocket handshake(Socket plain, String host, int port, int timeoutMs, List<String> alpn) throws IOException {
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters p = s.getSSLParameters();
        if (!alpn.isEmpty()) {
            p.setApplicationProtocols(alpn.toArray(String[]::new));
        }
        p.setProtocols(ServerTls.PROTOCOLS.toArray(String[]::new));
        p.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isIpLiteral(host)) {
            p.setServerNames(List.of(new SNIHostName(host)));
        }
        s.setSSLParameters(p);
        s.setSoTimeout(timeoutMs);
        s.startHandshake();
        return s;
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.');
    }
}
