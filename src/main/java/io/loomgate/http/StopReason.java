package io.loomgate.http;

import java.util.Locale;

/**
 * Why a request's work, or one call of it, stopped before it finished. A request's reason is
 * recorded once, on its {@link RequestLedger}, by whoever stops it first (the edge hears the client
 * hang up; the engine sees the deadline pass); every outcome, record and log line then reads it
 * from there instead of guessing.
 */
public enum StopReason {

    /** The request's deadline passed first. */
    DEADLINE("the request's deadline passed"),

    /** The answer was decided without it: a sibling won, or a call the answer needed failed. */
    SIBLING("the answer was decided without it"),

    /** The client closed its connection. */
    CLIENT_GONE("the client went away"),

    /** The gateway was shutting down, and the request was still running when the grace period ended. */
    SHUTDOWN("the gateway shut down");

    private final String why;

    StopReason(String why) {
        this.why = why;
    }

    /** {@code deadline}, {@code sibling}, {@code client_gone}: as logs and the timeline write it. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** In words, for messages: "the client went away". */
    public String why() {
        return why;
    }
}
