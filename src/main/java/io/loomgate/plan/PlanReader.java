package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.edge.routing.PathPattern;
import io.loomgate.edge.routing.RouteMatcher;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Reads a route file: JSON with the upstreams, then the routes that fan out to them.
 *
 * <pre>{@code
 * {"upstreams": [{"id": "db", "kind": "simulated", "service": "db", "latency": "300ms"},
 *                {"id": "file", "kind": "simulated", "service": "file"}],
 *  "routes":    [{"path": "/aggregate", "policy": "all", "upstreams": ["db", "file"]}]}
 * }</pre>
 *
 * Everything is checked here, once, at startup; a request never meets a bad route. Every error is
 * one line naming the file, the JSON path and the problem.
 */
public final class PlanReader {

    /** The built-in routes: every endpoint loomgate serves without {@code --routes}. */
    public static final String BUILT_IN = "/io/loomgate/demo/routes.json";

    /** The bundled backend's built-in routes: each simulated service at its own path, and /api/data. */
    public static final String BUILT_IN_BACKEND = "/io/loomgate/demo/backend.json";

    private static final List<String> TOP = List.of("upstreams", "routes", "clientKnobs", "auth", "cors", "authFailures", "compress");
    static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    private static final int MAX_PATH = 200;

    private final String source;
    private final PlanModules modules;
    private RouteReading reading;
    private final Set<String> reserved;
    private final Path baseDir;
    private final UnaryOperator<String> env;

    private PlanReader(String source, PlanModules modules, Set<String> reserved, Path baseDir, UnaryOperator<String> env) {
        this.source = source;
        this.modules = modules;
        this.reserved = Set.copyOf(reserved);
        this.baseDir = baseDir;
        this.env = env;
    }

    /**
     * Reads the file at {@code path}; errors name it as given.
     *
     * @param reserved paths routes may not take (the operator endpoints)
     */
    public static Plan read(Path path, PlanModules modules, Set<String> reserved) throws RouteFileException {
        return read(path, modules, reserved, System::getenv);
    }

    /**
     * Reads the file at {@code path}, its {@code ${NAME}} variables from {@code env} (a variable's
     * value, or null when it is unset).
     */
    public static Plan read(Path path, PlanModules modules, Set<String> reserved, UnaryOperator<String> env)
            throws RouteFileException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RouteFileException(path + ": cannot read the route file: " + e.getMessage());
        }
        Path dir = path.toAbsolutePath().getParent();
        return new PlanReader(path.toString(), modules, reserved, dir == null ? Path.of(".") : dir, env).table(text);
    }

    /** The built-in routes, shipped in the jar. */
    public static Plan builtIn(PlanModules modules, Set<String> reserved) throws RouteFileException {
        return builtIn(BUILT_IN, modules, reserved);
    }

    /** A route file shipped in the jar, such as {@link #BUILT_IN_BACKEND}. */
    public static Plan builtIn(String resource, PlanModules modules, Set<String> reserved)
            throws RouteFileException {
        try (InputStream in = PlanReader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the built-in route file " + resource + " is missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in " + resource.substring(resource.lastIndexOf('/') + 1), modules, reserved);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses and checks {@code json}; {@code source} names it in errors. */
    public static Plan parse(String json, String source, PlanModules modules, Set<String> reserved)
            throws RouteFileException {
        return new PlanReader(source, modules, reserved, Path.of(""), System::getenv).table(json);
    }

    @SuppressWarnings("unchecked")
    private Plan table(String json) throws RouteFileException {
        Object root;
        try {
            root = io.loomgate.json.JsonParser.parse(json);
        } catch (IllegalArgumentException e) {
            throw new RouteFileException(source + ": not valid JSON: " + e.getMessage());
        }
        root = Variables.expand(root, source, env);
        if (!(root instanceof Map<?, ?> map)) {
            throw new RouteFileException(source + ": must be a JSON object with \"upstreams\" and \"routes\"");
        }
        Fields top = new Fields(source, "", (Map<String, Object>) map, baseDir).expect("a route file", TOP);
        List<Object> upstreamList = top.array("upstreams");
        List<Object> routeList = top.array("routes");
        boolean knobs = top.optionalBoolean("clientKnobs").orElse(false);
        EdgeDecl fileEdge = EdgeReader.top(top, modules.authMethods());
        Optional<RateLimiter.Settings> authFailures = EdgeReader.authFailures(top);
        top.finish("a route file", TOP);

        List<UpstreamDecl> upstreams = new ArrayList<>();
        Map<UpstreamId, String> declaredAt = new LinkedHashMap<>();
        Map<UpstreamId, UpstreamDecl> declared = new LinkedHashMap<>();
        for (int i = 0; i < upstreamList.size(); i++) {
            Fields f = object(upstreamList.get(i), "upstreams[" + i + "]");
            UpstreamDecl u = UpstreamReader.read(f, modules, source);
            String first = declaredAt.putIfAbsent(u.id(), f.path());
            if (first != null) {
                throw f.error(f.path() + ".id '" + u.id() + "' is declared twice (first at " + first + ")");
            }
            upstreams.add(u);
            declared.put(u.id(), u);
        }
        RouteReading reading = new RouteReading(source, declared, knobs, fileEdge, modules);
        this.reading = reading;
        List<RoutePlan> routes = new ArrayList<>();
        Map<String, String> pathAt = new LinkedHashMap<>();
        Map<String, List<String>> methodsAt = new LinkedHashMap<>();
        for (int i = 0; i < routeList.size(); i++) {
            Fields f = object(routeList.get(i), "routes[" + i + "]");
            RoutePlan r = route(f);
            List<String> methods = r.methods();
            String matched = r.matcher().describe();   // routes with other hosts or conditions may share a path
            String key = r.path() + " " + matched;
            List<String> before = methodsAt.get(key);
            if (before != null && before.stream().anyMatch(methods::contains)) {
                throw f.error(f.path() + ".path '" + r.path() + "' is declared twice (first at " + pathAt.get(key)
                        + "); one path may have two routes only for different methods, hosts or match conditions");
            }
            methodsAt.computeIfAbsent(key, k -> new ArrayList<>()).addAll(methods);
            pathAt.putIfAbsent(key, f.path());
            PathPattern pattern = PathPattern.of(r.path());
            for (Map.Entry<String, String> other : pathAt.entrySet()) {
                String otherPath = other.getKey().substring(0, other.getKey().indexOf(' '));
                if (!otherPath.equals(r.path()) && !pattern.isLiteral() && pattern.sameShape(PathPattern.of(otherPath))) {
                    throw f.error(f.path() + ".path '" + r.path() + "' matches the same paths as " + other.getValue()
                            + ".path '" + otherPath + "' (only a literal segment beats a parameter)");
                }
            }
            routes.add(r);
        }
        return new Plan(source, upstreams, routes, authFailures);
    }

    /** One route: its path, then its {@code policy}, which says which kind of route reads the rest. */
    private RoutePlan route(Fields f) throws RouteFileException {
        String path = path(f);
        String policy = f.string("policy");
        RouteKindReader kind = null;
        List<String> known = new ArrayList<>();
        for (RouteKindReader k : modules.routeKinds()) {
            known.addAll(k.policies(modules));
            if (kind == null && k.reads(policy, modules)) {
                kind = k;
            }
        }
        if (kind == null) {
            throw f.bad("policy", "must be one of " + String.join(", ", known), policy);
        }
        if (kind.prefixPath() && path.equals("/")) {
            path = "/*";   // a catch-all, as nginx's location / is
        }
        if (reserved.contains(path)) {
            throw f.bad("path", "is taken by an operator endpoint (" + String.join(", ", reserved.stream().sorted().toList())
                    + ", /debug/...)", path);
        }
        if (kind.prefixPath() != path.endsWith("/*")) {
            throw f.bad("path", kind.prefixPath() ? "must end in /* for policy " + policy + " (e.g. /api/*)"
                    : "may end in /* only for policy " + String.join(", ", modules.routeKinds().stream()
                    .filter(RouteKindReader::prefixPath).flatMap(k -> k.policies(modules).stream()).toList()), path);
        }
        RouteMatcher matcher = RouteFields.matcher(f);   // read first: the kind's reader ends with what is left
        return kind.read(f, path, reading).withMatcher(matcher);
    }

    @SuppressWarnings("unchecked")
    private Fields object(Object value, String path) throws RouteFileException {
        if (!(value instanceof Map<?, ?> m)) {
            throw new RouteFileException(source + ": " + path + " must be an object; got " + Fields.shown(value));
        }
        return new Fields(source, path, (Map<String, Object>) m, baseDir);
    }

    private String path(Fields f) throws RouteFileException {
        String path = f.string("path");
        String plain = path.endsWith("/*") ? path.substring(0, path.length() - 1) : path;
        if (!path.startsWith("/") || path.length() > MAX_PATH || !plain.chars().allMatch(PlanReader::pathChar)) {
            throw f.bad("path", "must start with '/' and hold at most " + MAX_PATH
                    + " letters, digits and - . _ ~ / {} (and a final /* for a proxy)", path);
        }
        try {
            PathPattern.of(path);
        } catch (IllegalArgumentException e) {
            throw f.bad("path", e.getMessage(), path);
        }
        if (path.startsWith("/debug/")) {
            throw f.bad("path", "is taken by an operator endpoint (" + String.join(", ", reserved.stream().sorted().toList())
                    + ", /debug/...)", path);
        }
        return path;
    }


    private static boolean pathChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '{' || c == '}';
    }
}
