package io.loomgate.core.call;

import io.loomgate.config.Printable;

/**
 * The name of an upstream, as route files, query parameters, JSON and metrics write it: 1 to 40
 * lower-case ASCII letters, digits and {@code -}, such as {@code db} or {@code cache-1}.
 *
 * <pre>{@code
 * UpstreamId db = UpstreamId.of("db");
 * UpstreamId.of("DB");   // IllegalArgumentException: a service id must be 1 to 40 ... got 'DB'
 * }</pre>
 */
public record UpstreamId(String value) implements Comparable<UpstreamId> {

    /** The longest id accepted. */
    public static final int MAX_LENGTH = 40;

    /** What an id may be, for error messages. */
    public static final String ACCEPTED = "1 to " + MAX_LENGTH + " lower-case letters, digits and '-'";

    public UpstreamId {
        if (!isValid(value)) {
            throw new IllegalArgumentException("a service id must be " + ACCEPTED + ", got '"
                    + (value == null ? "null" : Printable.shorten(value, 64)) + "'");
        }
    }

    public static UpstreamId of(String value) {
        return new UpstreamId(value);
    }

    /** True when {@code value} would make a valid id. */
    public static boolean isValid(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int compareTo(UpstreamId other) {
        return value.compareTo(other.value);
    }

    // Written out, not the record's generated ones: those are bootstrapped through method handles on
    // first use, which cost a start 30 to 40 ms (docs/performance.md, startup); these say the same.
    @Override
    public boolean equals(Object o) {
        return o instanceof UpstreamId other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
