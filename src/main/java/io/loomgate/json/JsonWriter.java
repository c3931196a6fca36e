package io.loomgate.json;

import java.nio.charset.StandardCharsets;

/**
 * A small streaming JSON writer over a {@link StringBuilder}: no reflection, no intermediate tree,
 * commas placed for you. Nesting is tracked in a bit stack, so a writer allocates nothing but its
 * buffer (and, past 64 levels, a few more words). It nests as deep as {@link #MAX_DEPTH}: twice the
 * parser's limit and a margin, since loomgate writes documents it read inside documents it read (a
 * composed answer's template, from a route file, holding an upstream's answer), so anything the
 * parser accepted can be written.
 *
 * <pre>{@code
 * String json = new JsonWriter().beginObject()
 *         .field("status", "UP").field("uptimeMs", 12)
 *         .endObject().toString();   // {"status":"UP","uptimeMs":12}
 * }</pre>
 */
public final class JsonWriter {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** The deepest nesting written. */
    public static final int MAX_DEPTH = 2 * JsonParser.MAX_DEPTH + 16;

    private final StringBuilder out;
    private long hasElements;  // bit d: the container at depth d already holds an element, for d < 64
    private long[] deeper;     // the same bits for depths from 64 on, made when first needed
    private int depth;
    private boolean afterName;

    public JsonWriter() {
        this(256);
    }

    public JsonWriter(int capacity) {
        this.out = new StringBuilder(capacity);
    }

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** Writes a member name; the next value call writes its value. */
    public JsonWriter name(String name) {
        separate();
        quote(out, name);
        out.append(':');
        afterName = true;
        return this;
    }

    public JsonWriter value(String s) {
        separate();
        if (s == null) {
            out.append("null");
        } else {
            quote(out, s);
        }
        return this;
    }

    public JsonWriter value(long n) {
        separate();
        out.append(n);
        return this;
    }

    /** Writes {@code d} with at most one decimal; non-finite values become {@code null}. */
    public JsonWriter value(double d) {
        separate();
        if (!Double.isFinite(d)) {
            out.append("null");
        } else {
            long tenths = Math.round(d * 10);
            if (tenths < 0) {
                out.append('-');
                tenths = -tenths;
            }
            out.append(tenths / 10);
            if (tenths % 10 != 0) {
                out.append('.').append(tenths % 10);
            }
        }
        return this;
    }

    /** Writes a precise double, as Java prints it; for ratios and probabilities. */
    public JsonWriter preciseValue(double d) {
        separate();
        out.append(Double.isFinite(d) ? Double.toString(d) : "null");
        return this;
    }

    public JsonWriter value(boolean b) {
        separate();
        out.append(b);
        return this;
    }

    public JsonWriter nullValue() {
        separate();
        out.append("null");
        return this;
    }

    /**
     * Writes a value as {@link JsonParser} returns them: a {@code Map} (string keys), a
     * {@code List}, a {@code String}, a {@code Long} or other integral number, a {@code Double},
     * a {@code Boolean} or {@code null}.
     */
    public JsonWriter tree(Object value) {
        switch (value) {
            case null -> nullValue();
            case String s -> value(s);
            case Boolean b -> value(b);
            case Double d -> preciseValue(d);
            case Float f -> preciseValue(f);
            case Number n -> value(n.longValue());
            case java.util.Map<?, ?> m -> {
                beginObject();
                for (var e : m.entrySet()) {
                    name(String.valueOf(e.getKey())).tree(e.getValue());
                }
                endObject();
            }
            case java.util.List<?> list -> {
                beginArray();
                list.forEach(this::tree);
                endArray();
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass().getSimpleName());
        }
        return this;
    }

    /**
     * Writes {@code json}, which must be exactly one valid JSON value (the caller has checked it,
     * e.g. by parsing it), as it is.
     */
    public JsonWriter raw(String json) {
        separate();
        out.append(json);
        return this;
    }

    public JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, double value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    @Override
    public String toString() {
        return out.toString();
    }

    public byte[] toBytes() {
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Appends {@code s} to {@code sb} as a JSON string literal, quotes included. Most strings (names,
     * ids, states) need no escape and are appended whole; the scan for one is the only per-char work.
     */
    public static void quote(StringBuilder sb, String s) {
        sb.append('"');
        int first = firstToEscape(s);
        if (first == s.length()) {
            sb.append(s).append('"');
            return;
        }
        sb.append(s, 0, first);
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                          .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** The index of the first char that needs an escape, or the length when none does. */
    private static int firstToEscape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f || c == '\u2028' || c == '\u2029') {
                return i;
            }
        }
        return s.length();
    }

    private JsonWriter open(char bracket) {
        separate();
        if (depth == MAX_DEPTH) {
            throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH);
        }
        out.append(bracket);
        depth++;
        mark(depth, false);
        return this;
    }

    private JsonWriter close(char bracket) {
        if (depth == 0) {
            throw new IllegalStateException("no open container to close with " + bracket);
        }
        out.append(bracket);
        depth--;
        return this;
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (marked(depth)) {
            out.append(',');
        }
        mark(depth, true);
    }

    private boolean marked(int d) {
        if (d < 64) {
            return (hasElements & (1L << d)) != 0;
        }
        return (deeper[(d - 64) >> 6] & (1L << d)) != 0;
    }

    private void mark(int d, boolean holds) {
        if (d < 64) {
            hasElements = holds ? hasElements | (1L << d) : hasElements & ~(1L << d);
            return;
        }
        if (deeper == null) {
            deeper = new long[(MAX_DEPTH - 64 >> 6) + 1];
        }
        int w = (d - 64) >> 6;
        deeper[w] = holds ? deeper[w] | (1L << d) : deeper[w] & ~(1L << d);
    }
}
