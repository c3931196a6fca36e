package io.loomgate.upstream.cache;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * A Structured Fields Dictionary (RFC 8941 section 3.2), read member by member, strictly: any
 * departure from the grammar throws {@link IllegalArgumentException}, which makes the whole field
 * invalid. Only what cache directives need is kept of a member: its key and its bare item.
 */
final class Dictionary {

    /** One member: its key, and its value ({@code Boolean.TRUE} for a bare key, a Long, a String, or another item as text). */
    record Member(String key, Object value) {

        /** A non-negative Integer, as a number of seconds (2^31 at most, RFC 9111 section 1.2.2). */
        Duration seconds() {
            if (value instanceof Long n && n >= 0) {
                return Duration.ofSeconds(Math.min(n, Integer.MAX_VALUE + 1L));
            }
            throw new IllegalArgumentException(key + " must be a non-negative integer");
        }

        /** A Boolean directive. */
        boolean flag() {
            if (value instanceof Boolean b) {
                return b;
            }
            throw new IllegalArgumentException(key + " takes no value");
        }

        /** A Boolean, or a String naming fields (those go into {@code into}, and the directive applies only to them). */
        boolean flagOrFields(Set<String> into) {
            if (value instanceof String s) {
                Arrays.stream(s.split(",")).map(String::strip).filter(n -> !n.isEmpty()).map(n -> n.toLowerCase(Locale.ROOT)).forEach(into::add);
                return false;
            }
            return flag();
        }
    }

    private final String s;
    private int i;
    private boolean first = true;

    Dictionary(String value) {
        this.s = value;
        skip(' ');
    }

    /** The next member; null at the end. */
    Member next() {
        if (!first) {
            skipOws();
            if (i >= s.length()) {
                return null;
            }
            expect(',');
            skipOws();
            if (i >= s.length()) {
                throw new IllegalArgumentException("a trailing comma");
            }
        } else if (i >= s.length()) {
            return null;   // an empty field: no members
        }
        first = false;
        String key = key();
        Object value = Boolean.TRUE;
        if (i < s.length() && s.charAt(i) == '=') {
            i++;
            value = bareItem();
        }
        while (i < s.length() && s.charAt(i) == ';') {   // parameters: read, checked, not kept
            i++;
            skip(' ');
            key();
            if (i < s.length() && s.charAt(i) == '=') {
                i++;
                bareItem();
            }
        }
        return new Member(key, value);
    }

    private String key() {
        int from = i;
        if (i >= s.length() || !(lcalpha(s.charAt(i)) || s.charAt(i) == '*')) {
            throw new IllegalArgumentException("a key must begin with a lower-case letter or *");
        }
        while (i < s.length() && (lcalpha(s.charAt(i)) || Character.isDigit(s.charAt(i)) || "_-.*".indexOf(s.charAt(i)) >= 0)) {
            i++;
        }
        return s.substring(from, i);
    }

    private Object bareItem() {
        if (i >= s.length()) {
            throw new IllegalArgumentException("a value is missing");
        }
        char c = s.charAt(i);
        if (c == '-' || Character.isDigit(c)) {
            return number();
        }
        if (c == '"') {
            return string();
        }
        if (c == '?') {
            if (i + 1 < s.length() && (s.charAt(i + 1) == '0' || s.charAt(i + 1) == '1')) {
                i += 2;
                return s.charAt(i - 1) == '1';
            }
            throw new IllegalArgumentException("a boolean is ?0 or ?1");
        }
        if (c == ':') {
            int end = s.indexOf(':', i + 1);
            if (end < 0 || !s.substring(i + 1, end).matches("[A-Za-z0-9+/=]*")) {
                throw new IllegalArgumentException("a byte sequence");
            }
            i = end + 1;
            return "bytes";
        }
        if (Character.isLetter(c) && c < 128 || c == '*') {
            int from = i;
            while (i < s.length() && (tchar(s.charAt(i)) || s.charAt(i) == ':' || s.charAt(i) == '/')) {
                i++;
            }
            return new StringBuilder(s.substring(from, i));   // a token: not a String, so no directive takes it for field names
        }
        throw new IllegalArgumentException("not an item: " + c);
    }

    private Object number() {
        int from = i;
        if (s.charAt(i) == '-') {
            i++;
        }
        int digits = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == digits) {
            throw new IllegalArgumentException("a number without digits");
        }
        if (i < s.length() && s.charAt(i) == '.') {
            int whole = i - digits;
            i++;
            int frac = i;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (whole > 12 || i == frac || i - frac > 3) {
                throw new IllegalArgumentException("a decimal out of its bounds");
            }
            return Double.parseDouble(s.substring(from, i));
        }
        if (i - digits > 15) {
            throw new IllegalArgumentException("an integer of more than 15 digits");
        }
        return Long.parseLong(s.substring(from, i));
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        for (i++; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                if (++i >= s.length() || s.charAt(i) != '"' && s.charAt(i) != '\\') {
                    throw new IllegalArgumentException("a bad escape in a string");
                }
                out.append(s.charAt(i));
            } else if (c == '"') {
                i++;
                return out.toString();
            } else if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("a control character in a string");
            } else {
                out.append(c);
            }
        }
        throw new IllegalArgumentException("an unterminated string");
    }

    private void expect(char c) {
        if (i >= s.length() || s.charAt(i) != c) {
            throw new IllegalArgumentException("expected '" + c + "'");
        }
        i++;
    }

    private void skip(char c) {
        while (i < s.length() && s.charAt(i) == c) {
            i++;
        }
    }

    private void skipOws() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private static boolean lcalpha(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean tchar(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
    }
}
