package io.loomgate.client;

import io.loomgate.config.Durations;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** A read or a write to an upstream made no progress within the idle timeout. */
public final class IdleTimeout extends SocketTimeoutException {

    IdleTimeout(Duration idle, String what) {
        super(what + " for " + Durations.format(idle));
    }
}
