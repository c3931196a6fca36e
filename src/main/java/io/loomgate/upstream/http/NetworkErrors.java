package io.loomgate.upstream.http;

import io.loomgate.client.ConnectTimeout;
import io.loomgate.client.Origin;
import io.loomgate.config.Durations;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import javax.net.ssl.SSLException;

/**
 * Words for why an exchange with an upstream failed: {@link #reason} is safe to show a client (no
 * class names, no address or host name of the upstream's); {@link #detail} names the endpoint, for
 * the log an operator reads.
 */
final class NetworkErrors {

    private NetworkErrors() {
    }

    /** Why, for the client: the upstream's addresses and names stay inside. */
    static String reason(Throwable e) {
        return words(e, null);
    }

    /** Why, naming {@code origin}: for the log. */
    static String detail(Throwable e, Origin origin) {
        return words(e, origin);
    }

    private static String words(Throwable e, Origin origin) {
        String at = origin == null ? "" : " " + origin.host() + ":" + origin.port();
        if (e instanceof ConnectTimeout) {
            return "could not connect" + (origin == null ? "" : " to" + at) + " within " + Durations.format(HttpKind.CONNECT_TIMEOUT);
        }
        if (causedBy(e, UnknownHostException.class)) {
            return "cannot resolve " + (origin == null ? "the upstream's host name" : origin.host());
        }
        if (e instanceof ConnectException) {
            return "connection refused" + (origin == null ? "" : " by" + at);
        }
        if (causedBy(e, SSLException.class)) {
            return tls(e, origin);
        }
        return "the connection failed before a complete answer came" + (origin == null ? "" : " (" + at.strip() + ")");
    }

    /** A TLS failure, said the way an operator fixes it; without {@code origin}, without its name. */
    private static String tls(Throwable e, Origin origin) {
        String host = origin == null ? "the upstream" : origin.host();
        if (causedBy(e, CertificateExpiredException.class)) {
            return "certificate for " + host + " has expired";
        }
        if (causedBy(e, CertificateNotYetValidException.class)) {
            return "certificate for " + host + " is not valid yet";
        }
        if (causedBy(e, CertPathBuilderException.class) || causedBy(e, CertPathValidatorException.class)) {
            return "certificate for " + host + " is not trusted (no path to a trusted CA; see caFile)";
        }
        String message = messages(e);
        if (causedBy(e, CertificateException.class) && message.contains("matching")) {
            return origin == null ? "the upstream's certificate does not name its host" : "certificate does not name " + host;
        }
        String hostPort = origin == null ? host : host + ":" + origin.port();
        if (message.contains("Unsupported or unrecognized SSL message") || message.contains("plaintext connection")) {
            return hostPort + " did not answer with TLS";
        }
        return "TLS with " + hostPort + " failed" + (origin == null || message.isEmpty() ? "" : " (" + message + ")");
    }

    /** The first message in the cause chain that says something, without the class names some carry. */
    private static String messages(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage().replaceAll("\\b[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*\\.[A-Z]\\w*: ?", "").strip();
            }
        }
        return "";
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
