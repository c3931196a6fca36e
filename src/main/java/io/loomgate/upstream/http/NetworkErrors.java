package io.loomgate.upstream.http;

import io.loomgate.config.Durations;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import javax.net.ssl.SSLException;

/** Words for why an exchange with an upstream failed, safe to show a client: no class names. */
final class NetworkErrors {

    private NetworkErrors() {
    }

    static String reason(Throwable e, Origin origin) {
        if (e instanceof Http1Connection.ConnectTimeout) {
            return "could not connect within " + Durations.format(HttpKind.CONNECT_TIMEOUT);
        }
        if (causedBy(e, UnknownHostException.class)) {
            return "cannot resolve " + origin.host();
        }
        if (e instanceof ConnectException) {
            return "connection refused by " + origin.host() + ":" + origin.port();
        }
        if (causedBy(e, SSLException.class)) {
            return tls(e, origin);
        }
        return "the connection failed before a complete answer came";
    }

    /** A TLS failure, said the way an operator fixes it. */
    private static String tls(Throwable e, Origin origin) {
        String host = origin.host();
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
            return "certificate does not name " + host;
        }
        if (message.contains("Unsupported or unrecognized SSL message") || message.contains("plaintext connection")) {
            return host + ":" + origin.port() + " did not answer with TLS";
        }
        return "TLS with " + host + ":" + origin.port() + " failed" + (message.isEmpty() ? "" : " (" + message + ")");
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
