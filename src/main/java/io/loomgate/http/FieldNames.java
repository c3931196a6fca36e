package io.loomgate.http;

import java.util.Locale;

/**
 * A fixed set of header names, asked about in any case without a lower-case copy or a hash: the
 * names are kept by length, so a lookup compares the few of its length, ignoring case. For the
 * lists a proxy checks every field against (hop-by-hop fields, those it sets itself).
 *
 * <pre>{@code
 * FieldNames hop = FieldNames.of("connection", "keep-alive", "te");
 * hop.contains("Keep-Alive");   // true
 * }</pre>
 */
public final class FieldNames {

    /** Names by length: {@code byLength[n]} holds those of n characters, or null when none. */
    private final String[][] byLength;

    private FieldNames(String[][] byLength) {
        this.byLength = byLength;
    }

    /** A set of {@code names}, ASCII, compared without regard to case. */
    public static FieldNames of(String... names) {
        int longest = 0;
        for (String n : names) {
            if (n.isEmpty() || !n.chars().allMatch(c -> c < 0x80)) {
                throw new IllegalArgumentException("a field name of ASCII characters: " + n);
            }
            longest = Math.max(longest, n.length());
        }
        String[][] byLength = new String[longest + 1][];
        for (String n : names) {
            String[] same = byLength[n.length()];
            String[] grown = same == null ? new String[1] : java.util.Arrays.copyOf(same, same.length + 1);
            grown[grown.length - 1] = n.toLowerCase(Locale.ROOT);
            byLength[n.length()] = grown;
        }
        return new FieldNames(byLength);
    }

    /** Whether {@code name} is one of them, in any case. */
    public boolean contains(String name) {
        int n = name.length();
        if (n >= byLength.length || byLength[n] == null) {
            return false;
        }
        for (String candidate : byLength[n]) {
            if (candidate.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
