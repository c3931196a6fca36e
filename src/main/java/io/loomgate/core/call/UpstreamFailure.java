package io.loomgate.core.call;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An upstream call that failed: on purpose ({@code ?fail=db}, a failure rate) or for real. The
 * message is safe to show a client and starts with the upstream's id: {@code db: failed on request}.
 */
public final class UpstreamFailure extends Exception {

    private final UpstreamId service;
    private final OptionalInt status;
    private final boolean timedOut;
    private final boolean refused;
    private final boolean malformed;
    private final Optional<String> body;

    public UpstreamFailure(UpstreamId service, String reason) {
        this(service, reason, OptionalInt.empty());
    }

    /** @param status the upstream's own HTTP status, when it answered with one */
    public UpstreamFailure(UpstreamId service, String reason, OptionalInt status) {
        this(service, reason, status, false, false, false, Optional.empty());
    }

    /** @param body the upstream's JSON answer (an error document), which a composing route may pass on */
    public UpstreamFailure(UpstreamId service, String reason, OptionalInt status, Optional<String> body) {
        this(service, reason, status, false, false, false, body);
    }

    private UpstreamFailure(UpstreamId service, String reason, OptionalInt status, boolean timedOut, boolean refused,
                            boolean malformed, Optional<String> body) {
        super(Objects.requireNonNull(service, "service") + ": " + reason, null, false, false);
        this.service = service;
        this.status = Objects.requireNonNull(status, "status");
        this.timedOut = timedOut;
        this.refused = refused;
        this.malformed = malformed;
        this.body = Objects.requireNonNull(body, "body");
    }

    /** No (complete) answer came in time; a proxy route answers such a failure with 504 rather than 502. */
    public static UpstreamFailure timedOut(UpstreamId service, String reason) {
        return new UpstreamFailure(service, reason, OptionalInt.empty(), true, false, false, Optional.empty());
    }

    /** The call was not made at all (an open circuit breaker): trying again at once would not make it either. */
    public static UpstreamFailure refused(UpstreamId service, String reason) {
        return new UpstreamFailure(service, reason, OptionalInt.empty(), false, true, false, Optional.empty());
    }

    /**
     * The upstream answered, but its answer broke HTTP/1.1's rules (its framing, its head): it was
     * sent and read, so sending it again could repeat whatever the upstream did, and is not done.
     */
    public static UpstreamFailure malformed(UpstreamId service, String reason) {
        return new UpstreamFailure(service, reason, OptionalInt.empty(), false, false, true, Optional.empty());
    }

    /** The same failure, its reason followed by {@code more} ({@code " (after 3 tries)"}). */
    public UpstreamFailure with(String more) {
        String reason = getMessage().substring(service.value().length() + 2);
        return new UpstreamFailure(service, reason + more, status, timedOut, refused, malformed, body);
    }

    /** True when the call was never made (see {@link #refused(UpstreamId, String)}). */
    public boolean refused() {
        return refused;
    }

    /** True when the upstream's answer broke HTTP (see {@link #malformed(UpstreamId, String)}). */
    public boolean malformed() {
        return malformed;
    }

    /** The upstream's JSON answer when it answered with an error document. */
    public Optional<String> body() {
        return body;
    }

    public boolean timedOut() {
        return timedOut;
    }

    /** How the call it ended went: timed out when no answer came in time, else failed, with the upstream's status if it answered. */
    public Outcome outcome() {
        return timedOut ? Outcome.TIMED_OUT : new Outcome.Failed(getMessage(), status);
    }

    public UpstreamId service() {
        return service;
    }

    /** The upstream's HTTP status, if it answered (a route may pass it through). */
    public OptionalInt status() {
        return status;
    }
}
