package io.loomgate.core.call;

import io.loomgate.http.StopReason;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How one call ended: the one vocabulary that the fan-out engines, the policies, the JSON answer,
 * the metrics and the call log share. An engine reports what it saw ({@code Success}, {@code Failed},
 * {@code Cancelled}, {@code TimedOut}, {@code Orphaned}); a policy may then put a {@code Fallback}
 * in a part's place.
 */
public sealed interface Outcome {

    /** Every kind of ending: the JSON {@code state}, the metrics' {@code outcome} label. */
    enum Kind {
        SUCCESS, FAILED, CANCELLED, TIMEOUT, FALLBACK, ORPHANED;

        /** {@code success}, {@code failed}, ...: as JSON and metrics write it. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    Kind kind();

    /** The JSON {@code state}. */
    default String state() {
        return kind().wire();
    }

    /** True for a part that had not finished when the answer was decided (or never started). */
    default boolean unfinished() {
        return this instanceof Cancelled || this instanceof TimedOut || this instanceof Orphaned;
    }

    /** Cancelled because the answer was decided without it (a sibling won, or a needed call failed). */
    Cancelled CANCELLED = new Cancelled(StopReason.SIBLING);
    TimedOut TIMED_OUT = new TimedOut();
    Orphaned ORPHANED = new Orphaned();

    /**
     * How a call of {@code ctx}'s request ended that was interrupted before it finished, or never
     * started: the one place that tells a timeout from a cancellation, and one cancellation from
     * another. The request's own stop reason, when the edge or the deadline recorded one first, is the
     * answer ({@link RequestContext#stopReason}); otherwise it timed out when the request's deadline
     * stopped it, which is then recorded as the request's reason, and was cancelled because the answer
     * was decided without it (a sibling won, a call the answer needed failed) when anything else did.
     *
     * @param byDeadline true when the request's deadline, and not its answer, stopped the work
     */
    static Outcome stopped(RequestContext ctx, boolean byDeadline) {
        if (byDeadline) {
            ctx.ledger().stopped(StopReason.DEADLINE);
        }
        if (OwnTimeout.passed()) {
            return TIMED_OUT;   // the call's own timeout stopped it: its reason, not the request's
        }
        return switch (ctx.stopReason().orElse(StopReason.SIBLING)) {   // a deadline was recorded just above
            case DEADLINE -> TIMED_OUT;
            case SIBLING -> CANCELLED;
            case CLIENT_GONE, SHUTDOWN -> new Cancelled(ctx.stopReason().get());
        };
    }

    /** {@link #stopped} for a call interrupted under {@code ctx}: by its deadline once that has passed. */
    static Outcome interrupted(RequestContext ctx) {
        return stopped(ctx, ctx.deadlinePassed());
    }

    /**
     * How a forwarded exchange ended whose upstream answered {@code status}: a success below 500, a
     * failure of {@code upstream} from 500 up. The one rule, for the call log and the metrics alike.
     */
    static Outcome answered(UpstreamId upstream, int status) {
        return status >= 500 ? new Failed(upstream + ": answered HTTP " + status, OptionalInt.of(status))
                : new Success(new Value.Answered(status));
    }

    /**
     * How a forwarded exchange ended once its body was streamed to the client: as {@link #answered}
     * when it went whole ({@code bodyFailure} null), a failure of {@code upstream} when its body broke
     * off ({@link io.loomgate.http.BodyAborted}), cancelled when the copy to the client failed: by
     * the request's stop reason (a shutdown's interrupt), else because the client went away. The one
     * rule the call log, the metrics and the timeline read.
     */
    static Outcome forwarded(UpstreamId upstream, int status, java.io.IOException bodyFailure, RequestContext ctx) {
        return switch (bodyFailure) {
            case null -> answered(upstream, status);
            case io.loomgate.http.BodyAborted b -> new Failed(upstream + ": the answer broke off: " + b.getMessage());
            default -> new Cancelled(ctx.stopReason().orElse(StopReason.CLIENT_GONE));
        };
    }

    /** It returned a value. */
    record Success(Value value) implements Outcome {
        public Success {
            Objects.requireNonNull(value, "value");
        }

        public Kind kind() {
            return Kind.SUCCESS;
        }
    }

    /**
     * It failed; {@code reason} is safe to show and names the upstream. {@code status} is the
     * upstream's own HTTP status when it answered with one.
     */
    record Failed(String reason, OptionalInt status) implements Outcome {
        public Failed {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(status, "status");
        }

        public Failed(String reason) {
            this(reason, OptionalInt.empty());
        }

        public Kind kind() {
            return Kind.FAILED;
        }
    }

    /** It was stopped (or never started) because a sibling decided the answer first. */
    /** It was stopped before it finished, for {@code why} (never the deadline: that is {@link TimedOut}). */
    record Cancelled(StopReason why) implements Outcome {
        public Cancelled {
            Objects.requireNonNull(why, "why");
        }

        public Kind kind() {
            return Kind.CANCELLED;
        }
    }

    /** It was still running (or had not started) at the deadline, and was stopped. */
    record TimedOut() implements Outcome {
        public Kind kind() {
            return Kind.TIMEOUT;
        }
    }

    /** It failed or was late, and {@code value} stands in for it; {@code reason} says which. */
    record Fallback(Value value, String reason) implements Outcome {
        public Fallback {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(reason, "reason");
        }

        public Kind kind() {
            return Kind.FALLBACK;
        }
    }

    /** Still running when the answer was written, and nothing stops it (the CompletableFuture baseline). */
    record Orphaned() implements Outcome {
        public Kind kind() {
            return Kind.ORPHANED;
        }
    }
}
