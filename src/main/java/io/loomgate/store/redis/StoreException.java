package io.loomgate.store.redis;

import java.util.Locale;

/** A Redis command that gave no usable answer, and why, in a word the metrics count by. */
public final class StoreException extends Exception {

    /** Why: the deadline passed, Redis could not be reached, its reply was malformed, it answered an error, the breaker is open. */
    public enum Kind {
        TIMEOUT, UNAVAILABLE, MALFORMED, ERROR, OPEN;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final String detail;

    /**
     * @param message what to log: never a reply's content, which may be anything
     * @param detail  a Redis error's text, for a test or a debug log; empty otherwise
     */
    public StoreException(Kind kind, String message, String detail) {
        super(message, null, false, false);
        this.kind = kind;
        this.detail = detail;
    }

    public StoreException(Kind kind, String message) {
        this(kind, message, "");
    }

    public Kind kind() {
        return kind;
    }

    public String detail() {
        return detail;
    }
}
