package io.loomgate.module;

import io.loomgate.config.Durations;
import io.loomgate.config.Printable;
import io.loomgate.core.template.Template;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One JSON object of a route file, read field by field. Every read knows the object's JSON path,
 * so every error names the file, the path and the bad value; {@link #finish} then refuses any field
 * nobody read. Upstream kinds read their own fields through it.
 */
public final class Fields {

    private final String source;
    private final String path;
    private final Map<String, Object> map;
    private final Path baseDir;
    private final Set<String> read = new LinkedHashSet<>();
    private String what;
    private List<String> allowed;

    /** @param baseDir where file names in the file are found: the route file's own directory */
    public Fields(String source, String path, Map<String, Object> map, Path baseDir) {
        this.source = source;
        this.path = path;
        this.map = map;
        this.baseDir = baseDir;
    }

    /** An object inside this one, at JSON path {@code path}, as fields of its own. */
    public Fields nested(String path, Map<String, Object> map) {
        return new Fields(source, path, map, baseDir);
    }

    /** A file the route file names: relative names are found beside the route file. */
    public Path file(String name) {
        return baseDir.resolve(name);
    }

    /** The file, as errors name it. */
    public String source() {
        return source;
    }

    /** A required object field, as fields of its own (its JSON path below this one's). */
    @SuppressWarnings("unchecked")
    public Fields object(String name) throws RouteFileException {
        Object v = take(name);
        if (!(v instanceof Map<?, ?> m)) {
            throw v == null ? missing(name, "an object") : bad(name, "must be an object", v);
        }
        return nested(at(name), (Map<String, Object>) m);
    }

    /** The JSON path of this object, e.g. {@code upstreams[3]}. */
    /** Field {@code name}'s path: {@code upstreams[0].url}, or {@code routes} at the top (one way of writing paths everywhere). */
    public String at(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    public String path() {
        return path;
    }

    /** A required string field. */
    public String string(String name) throws RouteFileException {
        return optionalString(name).orElseThrow(() -> missing(name, "a string"));
    }

    public Optional<String> optionalString(String name) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof String s)) {
            throw bad(name, "must be a string", v);
        }
        return Optional.of(s);
    }

    public Optional<Boolean> optionalBoolean(String name) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Boolean b)) {
            throw bad(name, "must be true or false", v);
        }
        return Optional.of(b);
    }

    /** A duration such as {@code 300ms}, between {@code min} and {@code max}. */
    public Optional<Duration> optionalDuration(String name, Duration min, Duration max) throws RouteFileException {
        if (map.get(name) instanceof Number n) {   // "timeout": 500: say the form it takes
            take(name);
            throw bad(name, "must be a duration string such as \"" + n + "ms\" or \"" + n + "s\" (a number has no unit)", n);
        }
        Optional<String> text = optionalString(name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Durations.parseWithin(text.get(), min, max));
        } catch (IllegalArgumentException e) {
            throw bad(name, "must be " + e.getMessage(), text.get());
        }
    }

    /**
     * A size between {@code min} and {@code max} bytes: a whole number of bytes, or a string such as
     * {@code "512KB"}, {@code "64MB"}, {@code "1GB"} (powers of 1024, as nginx counts). One syntax for
     * every size in a route file.
     */
    public Optional<Long> optionalSize(String name, long min, long max) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        long n = -1;
        if (v instanceof Long l) {
            n = l;
        } else if (v instanceof String s && s.strip().toUpperCase(java.util.Locale.ROOT).matches("\\d{1,12}\\s*(B|KB|MB|GB)?")) {
            String t = s.strip().toUpperCase(java.util.Locale.ROOT);
            long unit = t.endsWith("GB") ? 1L << 30 : t.endsWith("MB") ? 1L << 20 : t.endsWith("KB") ? 1L << 10 : 1;
            n = Long.parseLong(t.replaceAll("\\D", "")) * unit;
        }
        if (n < min || n > max) {
            throw bad(name, "must be a size from " + Nearest.size(min) + " to " + Nearest.size(max) + " (a number of bytes, or such as \"512KB\", \"64MB\", \"1GB\")", v);
        }
        return Optional.of(n);
    }

    /** A number between {@code min} and {@code max}. */
    public Optional<Double> optionalNumber(String name, double min, double max) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Number n) || n.doubleValue() < min || n.doubleValue() > max) {
            throw bad(name, "must be a number from " + Printable.number(min) + " to " + Printable.number(max), v);
        }
        return Optional.of(n.doubleValue());
    }

    /** A whole number between {@code min} and {@code max}. */
    public Optional<Long> optionalInteger(String name, long min, long max) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Long n) || n < min || n > max) {
            throw bad(name, "must be a whole number from " + min + " to " + max, v);
        }
        return Optional.of(n);
    }

    /** An array of strings, each checked by {@code check} (which names what it accepts), or empty when absent. */
    public List<String> optionalStrings(String name, java.util.function.Predicate<String> check, String accepted)
            throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw bad(name, "must be an array of " + accepted, v);
        }
        List<String> result = new java.util.ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String s) || !check.test(s)) {
                throw bad(name + "[" + i + "]", "must be " + accepted, list.get(i));
            }
            result.add(s);
        }
        return List.copyOf(result);
    }

    /** Any JSON value, as parsed, or empty when absent. */
    public Optional<Object> optionalValue(String name) {
        return Optional.ofNullable(take(name));
    }

    /** A required array; each element's path is {@code name[i]}. */
    public List<Object> array(String name) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            throw missing(name, "an array");
        }
        if (!(v instanceof List<?> list)) {
            throw bad(name, "must be an array", v);
        }
        return List.copyOf(list);
    }

    /** An optional object, as a map of its fields. */
    @SuppressWarnings("unchecked")
    public Optional<Map<String, Object>> optionalObject(String name) throws RouteFileException {
        Object v = take(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw bad(name, "must be an object", v);
        }
        return Optional.of(new LinkedHashMap<>((Map<String, Object>) m));
    }

    /** Fails on the first field nobody read, listing the fields this object may have. */
    public void finish(String what, List<String> allowed) throws RouteFileException {
        for (String name : map.keySet()) {
            if (!read.contains(name)) {
                throw unknown(name, what, allowed);
            }
        }
    }

    /**
     * Says up front which fields this object may have. From then on, an error about any field of it
     * names an unknown field instead, when it has one: {@code "optinal": true} beside
     * {@code "fallback"} is a typo of {@code optional}, not a misplaced {@code fallback}.
     */
    public Fields expect(String what, List<String> allowed) {
        this.what = what;
        this.allowed = List.copyOf(allowed);
        return this;
    }

    private RouteFileException unknown(String name, String what, List<String> allowed) {
        String near = Nearest.of(name, allowed);
        return new RouteFileException(source + ": " + at(Printable.shorten(name, 40)) + " is not a field of " + what
                + (near == null ? "" : " (did you mean \"" + near + "\"?)") + " (its fields: " + String.join(", ", allowed) + ")");
    }

    /** {@code text}, the value of field {@code name}, as a template; its syntax errors are this field's. */
    public Template template(String name, String text) throws RouteFileException {
        try {
            return Template.parse(text);
        } catch (IllegalArgumentException e) {
            throw bad(name, e.getMessage().replaceFirst("^has ", "must not have "), text);
        }
    }

    /** An error about field {@code name} of this object. */
    public RouteFileException bad(String name, String problem, Object value) {
        return error(at(name) + " " + problem + "; got " + shown(value));
    }

    public RouteFileException missing(String name, String kind) {
        return error(at(name) + " is missing; it must be " + kind);
    }

    public RouteFileException error(String message) {
        if (allowed != null) {
            for (String name : map.keySet()) {
                if (!allowed.contains(name)) {
                    return unknown(name, what, allowed);
                }
            }
        }
        return new RouteFileException(source + ": " + message);
    }

    private Object take(String name) {
        read.add(name);
        return map.get(name);
    }

    public static String shown(Object value) {
        if (value instanceof String s) {
            return "'" + Printable.shorten(s, 60) + "'";
        }
        return value instanceof Map ? "an object" : value instanceof List ? "an array" : String.valueOf(value);
    }
}
