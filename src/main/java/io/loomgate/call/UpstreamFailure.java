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

    public UpstreamFailure(ServiceId service, String reason) {
        this(service, reason, OptionalInt.empty());
    }

    /** @param status the upstream's own HTTP status, when it answered with one */
    public UpstreamFailure(ServiceId service, String reason, OptionalInt status) {
        super(Objects.requireNonNull(service, "service") + ": " + reason, null, false, false);
        this.service = service;
        this.status = Objects.requireNonNull(status, "status");
    }

    public ServiceId service() {
        return service;
    }

    /** The upstream's HTTP status, if it answered (a route may pass it through). */
    public OptionalInt status() {
        return status;
    }
}
