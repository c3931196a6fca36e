package io.loomgate.core.template;

import io.loomgate.http.FieldText;
import io.loomgate.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A string with placeholders, {@code /users/{id}?from={query.from}}, checked once when the route
 * file is read and filled in for each request. {@code {{} and {@code }}} write a literal brace.
 *
 * <p><b>Filling in is safe.</b> What a placeholder stands for is encoded for where it goes
 * ({@link Encoding}): as one path segment (so {@code ../admin} can never climb out of it, and
 * {@code .}, {@code ..} and an empty value are refused), as a query component, as a header value
 * (refused if it holds a control character), or as plain text. A URL template's placeholders are
 * path segments before its first {@code ?} and query components after it.
 *
 * <pre>{@code
 * Template t = Template.parse("/teams/{user.teamId}");
 * t.url(p -> 3);                       // "/teams/3"
 * t.url(p -> "../admin");              // "/teams/..%2Fadmin"
 * }</pre>
 */
public final class Template {

    /** Where a filled-in value goes, and so how it is encoded. */
    public enum Encoding { PATH_SEGMENT, QUERY_COMPONENT, HEADER_VALUE, TEXT }

    /** What a placeholder stands for in one request: a JSON value (String, Number, Boolean, Map, List, or null). */
    @FunctionalInterface
    public interface Values {
        Object of(Placeholder placeholder) throws UnsafeValue;
    }

    private static final String UNRESERVED = "-._~";

    private final String text;
    private final List<Object> pieces;

    private Template(String text, List<Object> pieces) {
        this.text = text;
        this.pieces = pieces;
    }

    /**
     * @throws IllegalArgumentException saying what is wrong: an unclosed brace, or a placeholder
     *                                  that is not {@code {name}} or {@code {name.field...}}
     */
    public static Template parse(String text) {
        Objects.requireNonNull(text, "text");
        List<Object> pieces = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < text.length() && text.charAt(i + 1) == c) {
                literal.append(c);
                i++;
            } else if (c == '}') {
                throw new IllegalArgumentException("has a '}' with no '{' (write }} for a literal brace)");
            } else if (c == '{') {
                int end = text.indexOf('}', i);
                if (end < 0) {
                    throw new IllegalArgumentException("has a '{' that is never closed (write {{ for a literal brace)");
                }
                if (!literal.isEmpty()) {
                    pieces.add(literal.toString());
                    literal.setLength(0);
                }
                pieces.add(placeholder(text.substring(i + 1, end)));
                i = end;
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            pieces.add(literal.toString());
        }
        return new Template(text, List.copyOf(pieces));
    }

    private static Placeholder placeholder(String inside) {
        String[] parts = inside.split("\\.", -1);
        String head = parts[0];
        if (head.isEmpty() || !Character.isLetter(head.charAt(0)) || !word(head)) {
            throw new IllegalArgumentException("has '{" + inside + "}', which is not a placeholder: {name} or {name.field},"
                    + " names of letters, digits, - and _");
        }
        List<String> fields = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].isEmpty() || !word(parts[i])) {
                throw new IllegalArgumentException("has '{" + inside + "}', whose field '" + parts[i] + "' is not letters, digits, - or _");
            }
            fields.add(parts[i]);
        }
        return new Placeholder(head, fields);
    }

    private static boolean word(String s) {
        return s.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_');
    }

    /** The placeholders, left to right. */
    public List<Placeholder> placeholders() {
        return pieces.stream().filter(p -> p instanceof Placeholder).map(p -> (Placeholder) p).toList();
    }

    /** True when the template is exactly one placeholder and nothing else: {@code "{user}"}. */
    public boolean isOnePlaceholder() {
        return pieces.size() == 1 && pieces.getFirst() instanceof Placeholder;
    }

    public boolean hasPlaceholders() {
        return pieces.stream().anyMatch(p -> p instanceof Placeholder);
    }

    /** As a URL's path and query: path segments before the first literal {@code ?}, query components after it. */
    public String url(Values values) throws UnsafeValue {
        StringBuilder out = new StringBuilder(text.length() + 16);
        boolean query = false;
        for (Object piece : pieces) {
            if (piece instanceof String s) {
                out.append(s);
                query |= s.indexOf('?') >= 0;
            } else {
                Placeholder p = (Placeholder) piece;
                out.append(encode(p, values.of(p), query ? Encoding.QUERY_COMPONENT : Encoding.PATH_SEGMENT));
            }
        }
        return out.toString();
    }

    /** Filled in, every value encoded the same way. */
    public String render(Values values, Encoding encoding) throws UnsafeValue {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (Object piece : pieces) {
            if (piece instanceof String s) {
                out.append(s);
            } else {
                Placeholder p = (Placeholder) piece;
                out.append(encode(p, values.of(p), encoding));
            }
        }
        return out.toString();
    }

    /** For a template that is one placeholder, its value with its JSON type; otherwise the text. */
    public Object value(Values values) throws UnsafeValue {
        return isOnePlaceholder() ? values.of((Placeholder) pieces.getFirst()) : render(values, Encoding.TEXT);
    }

    /** A JSON value as text: a string as it is, anything else as JSON ({@code 42}, {@code true}, {@code [1,2]}). */
    public static String text(Object value) {
        return switch (value) {
            case null -> "";
            case String s -> s;
            case Number n -> String.valueOf(n);
            case Boolean b -> b.toString();
            default -> new JsonWriter(64).tree(value).toString();
        };
    }

    static String encode(Placeholder p, Object value, Encoding encoding) throws UnsafeValue {
        String s = text(value);
        return switch (encoding) {
            case TEXT -> s;
            case QUERY_COMPONENT -> percent(s);
            case PATH_SEGMENT -> {
                if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                    throw new UnsafeValue(p, "cannot be a path segment: " + (s.isEmpty() ? "it is empty" : "'" + s + "'"));
                }
                yield percent(s);
            }
            case HEADER_VALUE -> {
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if ((c < 0x20 && c != '\t') || c == 0x7f) {
                        throw new UnsafeValue(p, "cannot be a header value: it holds a control character");
                    }
                }
                yield FieldText.wire(s);
            }
        };
    }

    /** RFC 3986 percent-encoding of everything but the unreserved characters, as UTF-8. */
    private static String percent(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || UNRESERVED.indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    /** Follows {@code fields} into a JSON value; null when a field is missing or the value is not an object or array. */
    public static Object field(Object value, List<String> fields) {
        Object v = value;
        for (String f : fields) {
            if (v instanceof Map<?, ?> m) {
                v = m.get(f);
            } else if (v instanceof List<?> l && f.chars().allMatch(Character::isDigit) && f.length() < 9
                    && Integer.parseInt(f) < l.size()) {
                v = l.get(Integer.parseInt(f));
            } else {
                return null;
            }
        }
        return v;
    }

    @Override
    public String toString() {
        return text;
    }
}
