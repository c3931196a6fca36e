package io.loomgate.config;

/**
 * Client or user input made safe to echo in a message or a log line: at most {@code limit}
 * characters (then {@code ...}), anything but printable ASCII replaced by {@code ?}. Bounded, so a
 * long value cannot make a long message; printable ASCII, so it cannot forge a log line or break a
 * header, whatever bytes it came as. Also numbers as people
 * write them, for messages and listings.
 */
public final class Printable {

    private Printable() {
    }

    /** {@code 5}, {@code 0.05}, {@code 99.9}: no trailing {@code .0}, no exponent. */
    public static String number(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    public static String shorten(String raw, int limit) {
        if (raw == null) {
            return "";
        }
        int n = Math.min(raw.length(), limit);
        StringBuilder sb = new StringBuilder(n + 3);
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            sb.append(c < 0x20 || c >= 0x7f ? '?' : c);
        }
        if (raw.length() > limit) {
            sb.append("...");
        }
        return sb.toString();
    }
}
