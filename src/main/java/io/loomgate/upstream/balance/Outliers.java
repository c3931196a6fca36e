package io.loomgate.upstream.balance;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Passive outlier detection ({@code "outliers"}), as Envoy does it: an endpoint whose own calls
 * failed {@code consecutiveFailures} times in a row, counting the kinds of failure {@code failOn}
 * names, is ejected for {@code baseEjection} times the number of times it has been ejected, but
 * never more than {@code maxEjectedPercent} of the endpoints at once (at least one may always be
 * ejected of two or more).
 */
public record Outliers(int consecutiveFailures, Duration baseEjection, int maxEjectedPercent, Set<Fault> failOn) {

    /** A kind of failure of an endpoint's own. */
    public enum Fault {
        /** No connection, or it was reset or closed before a complete answer, or the answer was malformed. */
        CONNECT,
        /** No answer within the call's time. */
        TIMEOUT,
        /** Any 5xx answer. */
        SERVER_ERROR,
        /** A 502, 503 or 504 answer only (Envoy's gateway failures), when {@code 5xx} is not counted. */
        GATEWAY;

        /** {@code connect}, {@code timeout}, {@code 5xx}, {@code gateway}: as the route file writes it. */
        public String wire() {
            return this == SERVER_ERROR ? "5xx" : name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Fault> fromWire(String s) {
            for (Fault f : values()) {
                if (f.wire().equals(s)) {
                    return Optional.of(f);
                }
            }
            return Optional.empty();
        }
    }

    public static final Set<Fault> DEFAULT_FAIL_ON = Set.copyOf(EnumSet.of(Fault.CONNECT, Fault.TIMEOUT, Fault.SERVER_ERROR));
    public static final Outliers DEFAULT = new Outliers(5, Duration.ofSeconds(30), 50, DEFAULT_FAIL_ON);
    /** The longest an ejection lasts, however often the endpoint was ejected before. */
    static final Duration MAX_EJECTION = Duration.ofMinutes(5);

    public Outliers {
        if (consecutiveFailures < 1 || baseEjection.isNegative() || maxEjectedPercent < 0 || maxEjectedPercent > 100) {
            throw new IllegalArgumentException("bad outlier settings: " + consecutiveFailures + ", " + baseEjection + ", "
                    + maxEjectedPercent);
        }
        failOn = Set.copyOf(failOn);
    }

    /** True when an answer with {@code status} counts as the endpoint's failure. */
    public boolean counts(int status) {
        if (status < 500) {
            return false;
        }
        return failOn.contains(Fault.SERVER_ERROR) || failOn.contains(Fault.GATEWAY) && status >= 502 && status <= 504;
    }

    /** True when a failure of {@code kind} counts. */
    public boolean counts(Fault kind) {
        return failOn.contains(kind);
    }
}
