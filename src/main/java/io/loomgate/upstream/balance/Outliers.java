package io.loomgate.upstream.balance;

import java.time.Duration;

/**
 * Passive outlier detection ({@code "outliers"}), as Envoy does it: an endpoint whose own calls
 * failed {@code consecutiveFailures} times in a row (refused or reset, 5xx, timed out) is ejected
 * for {@code baseEjection} times the number of times it has been ejected, but never more than
 * {@code maxEjectedPercent} of the endpoints at once (at least one may always be ejected of two or
 * more).
 */
public record Outliers(int consecutiveFailures, Duration baseEjection, int maxEjectedPercent) {

    public static final Outliers DEFAULT = new Outliers(5, Duration.ofSeconds(30), 50);
    /** The longest an ejection lasts, however often the endpoint was ejected before. */
    static final Duration MAX_EJECTION = Duration.ofMinutes(5);

    public Outliers {
        if (consecutiveFailures < 1 || baseEjection.isNegative() || maxEjectedPercent < 0 || maxEjectedPercent > 100) {
            throw new IllegalArgumentException("bad outlier settings: " + consecutiveFailures + ", " + baseEjection + ", "
                    + maxEjectedPercent);
        }
    }
}
