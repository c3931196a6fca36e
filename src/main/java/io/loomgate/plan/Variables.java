package io.loomgate.plan;

import io.loomgate.module.RouteFileException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The variables of a route file: {@code ${NAME}} and {@code ${NAME:-default}} in any string value,
 * read from the environment when the file is read (at start and at every reload), and {@code $$}
 * for a literal dollar. Nothing else: no commands, no nesting, no {@code $NAME} without braces (a
 * {@code $} before anything but <code>{</code> or {@code $} is itself). An unset variable without
 * a default, an empty name or an unclosed brace stops the read, naming the file and the JSON path.
 * Field names are not expanded, only values.
 */
final class Variables {

    private final String source;
    private final UnaryOperator<String> env;

    private Variables(String source, UnaryOperator<String> env) {
        this.source = source;
        this.env = env;
    }

    /**
     * The parsed JSON {@code tree} with every string value expanded.
     *
     * @param env a variable's value, or null when it is unset
     */
    static Object expand(Object tree, String source, UnaryOperator<String> env) throws RouteFileException {
        return new Variables(source, env).value(tree, "");
    }

    private Object value(Object v, String path) throws RouteFileException {
        return switch (v) {
            case String s -> string(s, path);
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    out.put(key, value(e.getValue(), path.isEmpty() ? key : path + "." + key));
                }
                yield out;
            }
            case List<?> l -> {
                List<Object> out = new ArrayList<>(l.size());
                for (int i = 0; i < l.size(); i++) {
                    out.add(value(l.get(i), path + "[" + i + "]"));
                }
                yield out;
            }
            case null, default -> v;
        };
    }

    /** One string with its variables replaced. */
    String string(String s, String path) throws RouteFileException {
        if (s.indexOf('$') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '$' || i + 1 == s.length() || (s.charAt(i + 1) != '{' && s.charAt(i + 1) != '$')) {
                out.append(c);
                i++;
            } else if (s.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
            } else {
                int close = s.indexOf('}', i + 2);
                if (close < 0) {
                    throw error(path, "has '${' without its '}' (write $$ for a literal dollar)");
                }
                out.append(variable(s.substring(i + 2, close), path));
                i = close + 1;
            }
        }
        return out.toString();
    }

    private String variable(String inside, String path) throws RouteFileException {
        int sep = inside.indexOf(":-");
        String name = sep < 0 ? inside : inside.substring(0, sep);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw error(path, "names a variable '" + printable(name) + "'; a name is letters, digits and _, not starting with a digit"
                    + " (write ${NAME} or ${NAME:-default})");
        }
        if (sep >= 0 && inside.indexOf("${", sep) >= 0) {
            throw error(path, "nests a variable in ${" + name + "}'s default; variables do not nest");
        }
        String value = env.apply(name);
        if (value != null) {
            return value;
        }
        if (sep < 0) {
            throw error(path, "uses ${" + name + "}, which is not set in the environment (set it, or give a default: ${"
                    + name + ":-value})");
        }
        return inside.substring(sep + 2);
    }

    private static String printable(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    private RouteFileException error(String path, String what) {
        return new RouteFileException(source + ": " + path + " " + what);
    }
}
