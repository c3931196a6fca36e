package io.loomgate.config;

import java.time.Duration;

/**
 * Parses and prints the durations users type: a number with an {@code ms}, {@code s}, {@code m} or
 * {@code h} suffix ({@code 300ms}, {@code 2s}, {@code 1.5s}, {@code 1m}, {@code 2h}). A decimal part
 * is allowed where it comes to whole milliseconds ({@code 1.5s}, {@code 0.25m}, not {@code 1.5ms}).
 * A bare {@code 0} is also accepted. Used for flags, query parameters and route files alike, so all
 * read the same way.
 */
public final class Durations {

    /** What the parser accepts, for error messages. */
    public static final String ACCEPTED = "a duration such as 300ms, 1.5s, 2m or 1h";

    // Far beyond any deadline, latency or grace loomgate has, and it keeps the math in longs.
    private static final int MAX_DIGITS = 9;
    private static final long[] TENS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    private Durations() {
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming {@link #ACCEPTED} when the text is not a duration, or
     *         saying so when it is finer than a millisecond
     */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        int whole = 0;
        while (whole < text.length() && isAsciiDigit(text.charAt(whole))) {
            whole++;
        }
        int unitStart = whole;
        if (unitStart < text.length() && text.charAt(unitStart) == '.') {
            unitStart++;
            while (unitStart < text.length() && isAsciiDigit(text.charAt(unitStart))) {
                unitStart++;
            }
            if (unitStart == whole + 1) {
                throw new IllegalArgumentException(ACCEPTED);
            }
        }
        if (whole == 0 || whole > MAX_DIGITS || unitStart - whole > MAX_DIGITS) {
            throw new IllegalArgumentException(ACCEPTED);
        }
        long unitMillis = switch (text.substring(unitStart)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> throw new IllegalArgumentException(ACCEPTED);
        };
        // At most nine digits each side and an hour's milliseconds as the unit: the products fit a long.
        // (BigDecimal did this once; its class initialisation alone cost 20 to 40 ms of every start.)
        long millis = Long.parseLong(text, 0, whole, 10) * unitMillis;
        if (unitStart > whole) {
            int fractionDigits = unitStart - whole - 1;
            long fraction = Long.parseLong(text, whole + 1, unitStart, 10) * unitMillis;
            long scale = TENS[fractionDigits];
            if (fraction % scale != 0) {
                throw new IllegalArgumentException(ACCEPTED + ", in whole milliseconds");
            }
            millis += fraction / scale;
        }
        return Duration.ofMillis(millis);
    }

    /**
     * Parses {@code text} and checks it lies from {@code min} to {@code max}.
     *
     * @throws IllegalArgumentException whose message says what is accepted: {@code a duration from
     *         1ms to 30s such as 300ms, 1.5s, 2m or 1h}
     */
    public static Duration parseWithin(String text, Duration min, Duration max) {
        String accepted = "a duration from " + format(min) + " to " + format(max) + " such as 300ms, 1.5s, 2m or 1h";
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

    /** Prints {@code d} in the largest unit that shows it exactly: {@code 300ms}, {@code 2s}, {@code 1m}, {@code 1h}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
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
