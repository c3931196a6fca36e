package io.loomgate.call;

import java.util.Objects;

/**
 * An upstream call that failed: on purpose ({@code ?fail=db}, a failure rate) or for real. The
 * message is safe to show a client and starts with the upstream's id: {@code db: failed on request}.
 */
public final class UpstreamFailure extends Exception {

    private final ServiceId service;

    public UpstreamFailure(ServiceId service, String reason) {
        super(Objects.requireNonNull(service, "service") + ": " + reason, null, false, false);
        this.service = service;
    }

    public ServiceId service() {
        return service;
    }
}
