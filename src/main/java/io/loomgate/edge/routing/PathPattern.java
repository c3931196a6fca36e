package io.loomgate.edge.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A route's path as a pattern of segments: literals ({@code users}), parameters ({@code {id}}),
 * and, for a prefix route, a final {@code *} that takes the rest. {@code /users/{id}/overview}
 * matches {@code /users/7/overview} with {@code id=7}; {@code /api/*} matches {@code /api/} and
 * everything below it.
 *
 * <p>When several patterns match a path, the more specific wins, segment by segment from the left:
 * a literal beats a parameter, which beats the rest of a prefix. Two patterns of the same shape
 * (the same literals in the same places, parameters in the same places) would match exactly the
 * same paths with nothing to choose between them: {@link #sameShape} finds them, and the route
 * file refuses them.
 */
public final class PathPattern {

    /** Names a parameter may not take: they are placeholders of their own. */
    public static final Set<String> RESERVED_NAMES = Set.of("query", "header", "item", "errors", "jwt");

    private static final int LITERAL = 0;
    private static final int PARAMETER = 1;
    private static final int REST = 2;

    private final String text;
    private final String[] segments;
    private final String[] names;
    private final boolean prefix;

    private PathPattern(String text, String[] segments, String[] names, boolean prefix) {
        this.text = text;
        this.segments = segments;
        this.names = names;
        this.prefix = prefix;
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code path}
     */
    public static PathPattern of(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("must start with '/'");
        }
        boolean prefix = path.endsWith("/*");
        String body = prefix ? path.substring(1, Math.max(1, path.length() - 2)) : path.substring(1);
        String[] parts = prefix && body.isEmpty() ? new String[0] : body.split("/", -1);
        String[] names = new String[parts.length];
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            String s = parts[i];
            if (s.startsWith("{") && s.endsWith("}")) {
                String name = s.substring(1, s.length() - 1);
                if (!isName(name)) {
                    throw new IllegalArgumentException("has '" + s + "', which is not a parameter: a name of letters, digits and _, starting with a letter");
                }
                if (RESERVED_NAMES.contains(name)) {
                    throw new IllegalArgumentException("uses '{" + name + "}', a reserved name (" + String.join(", ", RESERVED_NAMES.stream().sorted().toList()) + ")");
                }
                if (seen.contains(name)) {
                    throw new IllegalArgumentException("names '{" + name + "}' twice");
                }
                seen.add(name);
                names[i] = name;
            } else if (s.indexOf('{') >= 0 || s.indexOf('}') >= 0 || s.indexOf('*') >= 0) {
                throw new IllegalArgumentException("has '" + s + "', but a parameter is a whole segment, {name}, and only a final /* takes the rest");
            } else if (s.isEmpty() && i < parts.length - 1) {
                throw new IllegalArgumentException("has an empty segment ('//')");
            }
        }
        return new PathPattern(path, parts, names, prefix);
    }

    private static boolean isName(String s) {
        if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
            return false;
        }
        return s.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
    }

    /** True when the pattern has no parameter and no rest: it matches one path, itself. */
    public boolean isLiteral() {
        return !prefix && parameters().isEmpty();
    }

    public boolean isPrefix() {
        return prefix;
    }

    /** The parameter names, left to right. */
    public List<String> parameters() {
        List<String> list = new ArrayList<>();
        for (String n : names) {
            if (n != null) {
                list.add(n);
            }
        }
        return list;
    }

    /**
     * The parameters of {@code path} (decoded, split at '/'), or null when it does not match. A
     * prefix pattern matches a path with at least one more segment than its own (its trailing
     * slash included).
     */
    Map<String, String> match(String[] path) {
        if (prefix ? path.length <= segments.length : path.length != segments.length) {
            return null;
        }
        Map<String, String> params = null;
        for (int i = 0; i < segments.length; i++) {
            if (names[i] == null) {
                if (!segments[i].equals(path[i])) {
                    return null;
                }
            } else {
                if (path[i].isEmpty()) {
                    return null;
                }
                if (params == null) {
                    params = new LinkedHashMap<>(4);
                }
                params.put(names[i], path[i]);
            }
        }
        return params == null ? Map.of() : params;
    }

    /** Negative when this pattern is more specific than {@code other} (both matched the same path). */
    int compareSpecificity(PathPattern other) {
        int n = Math.max(segments.length, other.segments.length) + 1;
        for (int i = 0; i < n; i++) {
            int a = kind(i);
            int b = other.kind(i);
            if (a != b) {
                return Integer.compare(a, b);
            }
        }
        return 0;
    }

    private int kind(int i) {
        if (i < segments.length) {
            return names[i] == null ? LITERAL : PARAMETER;
        }
        return prefix ? REST : -1;
    }

    /** True when both match exactly the same paths: the same literals and parameters in the same places. */
    public boolean sameShape(PathPattern other) {
        if (prefix != other.prefix || segments.length != other.segments.length) {
            return false;
        }
        for (int i = 0; i < segments.length; i++) {
            boolean param = names[i] != null;
            if (param != (other.names[i] != null) || (!param && !segments[i].equals(other.segments[i]))) {
                return false;
            }
        }
        return true;
    }

    /** A decoded path as segments: {@code /a/b/} is {@code [a, b, ""]}. */
    static String[] split(String path) {
        if (path.length() <= 1) {
            return new String[] {""};
        }
        int slashes = 0;
        for (int i = 1; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                slashes++;
            }
        }
        String[] segments = new String[slashes + 1];
        int from = 1;
        for (int k = 0; k < slashes; k++) {
            int slash = path.indexOf('/', from);
            segments[k] = path.substring(from, slash);
            from = slash + 1;
        }
        segments[slashes] = path.substring(from);
        return segments;
    }

    @Override
    public String toString() {
        return text;
    }
}
