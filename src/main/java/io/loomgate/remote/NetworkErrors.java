package io.loomgate.remote;

import io.loomgate.config.Durations;
import java.net.ConnectException;
import java.net.UnknownHostException;

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
        return "the connection failed before a complete answer came";
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
