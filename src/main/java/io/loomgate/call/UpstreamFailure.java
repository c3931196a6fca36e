package io.loomgate.call;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * An upstream call that failed: on purpose ({@code ?fail=db}, a failure rate) or for real. The
 * message is safe to show a client and starts with the upstream's id: {@code db: failed on request}.
 */
public final class UpstreamFailure extends Exception {

    private final ServiceId service;
    private final OptionalInt status;
    private final boolean timedOut;

    public UpstreamFailure(ServiceId service, String reason) {
        this(service, reason, OptionalInt.empty());
    }

    /** @param status the upstream's own HTTP status, when it answered with one */
    public UpstreamFailure(ServiceId service, String reason, OptionalInt status) {
        this(service, reason, status, false);
    }

    private UpstreamFailure(ServiceId service, String reason, OptionalInt status, boolean timedOut) {
        super(Objects.requireNonNull(service, "service") + ": " + reason, null, false, false);
        this.service = service;
        this.status = Objects.requireNonNull(status, "status");
        this.timedOut = timedOut;
    }

    /** No (complete) answer came in time; a proxy route answers such a failure with 504 rather than 502. */
    public static UpstreamFailure timedOut(ServiceId service, String reason) {
        return new UpstreamFailure(service, reason, OptionalInt.empty(), true);
    }

    public boolean timedOut() {
        return timedOut;
    }

    public ServiceId service() {
        return service;
    }

    /** The upstream's HTTP status, if it answered (a route may pass it through). */
    public OptionalInt status() {
        return status;
    }
}
