package io.loomgate.config;

import java.time.Duration;

/**
 * Parses and prints the durations users type: a whole number with an {@code ms}, {@code s} or
 * {@code m} suffix ({@code 300ms}, {@code 2s}, {@code 1m}). A bare {@code 0} is also accepted.
 * Used for flags and for query parameters alike, so both read the same way.
 */
public final class Durations {

    /** What the parser accepts, for error messages. */
    public static final String ACCEPTED = "a duration such as 300ms, 2s or 1m";

    // An hour is far beyond any deadline, latency or grace loomgate has; it also keeps the math in longs.
    private static final long MAX_DIGITS = 9;

    private Durations() {
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming {@link #ACCEPTED} when the text is not a duration
     */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        int unitStart = 0;
        while (unitStart < text.length() && isAsciiDigit(text.charAt(unitStart))) {
            unitStart++;
        }
        if (unitStart == 0 || unitStart > MAX_DIGITS) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        long amount = Long.parseLong(text, 0, unitStart, 10);
        return switch (text.substring(unitStart)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> throw new IllegalArgumentException(ACCEPTED);
        };
    }

    /**
     * Parses {@code text} and checks it lies from {@code min} to {@code max}.
     *
     * @throws IllegalArgumentException whose message says what is accepted: {@code a duration from
     *         1ms to 30s such as 300ms, 2s or 1m}
     */
    public static Duration parseWithin(String text, Duration min, Duration max) {
        String accepted = "a duration from " + format(min) + " to " + format(max) + " such as 300ms, 2s or 1m";
        Duration d;
        try {
            d = parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(accepted);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(accepted);
        }
        return d;
    }

    /** Prints {@code d} in the largest unit that shows it exactly: {@code 300ms}, {@code 2s}, {@code 1m}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms != 0 && ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
