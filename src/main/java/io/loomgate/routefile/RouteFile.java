package io.loomgate.routefile;

import io.loomgate.aggregate.HedgeSettings;
import io.loomgate.call.ServiceId;
import io.loomgate.compose.CallGraph;
import io.loomgate.compose.CallSpec;
import io.loomgate.routing.PathPattern;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
public final class RouteFile {

    /** The built-in routes: every endpoint loomgate serves without {@code --routes}. */
    public static final String BUILT_IN = "/io/loomgate/demo/routes.json";

    /** The bundled backend's built-in routes: each simulated service at its own path, and /api/data. */
    public static final String BUILT_IN_BACKEND = "/io/loomgate/demo/backend.json";

    static final List<String> POLICIES = List.of("single", "all", "any", "fallback", "quorum", "hedge", "proxy", "compose");
    static final List<String> STATUSES = List.of("policy", "passthrough");
    static final List<String> ANSWERS = List.of("contract", "value");
    static final List<String> ENGINES = List.of("structured", "completable-future");
    static final List<String> EXECUTORS = List.of("common-pool", "virtual-threads");
    private static final List<String> TOP = List.of("upstreams", "routes", "clientKnobs");
    private static final List<String> ROUTE_FIELDS = List.of("path", "policy", "engine", "executor", "upstreams",
            "fallbacks", "timeout", "status", "answer", "quorum", "hedge", "clientKnobs", "calls", "methods");
    static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    private static final int MAX_PATH = 200;

    private final String source;
    private final Map<String, UpstreamKind> kinds = new LinkedHashMap<>();
    private final Set<String> reserved;

    private RouteFile(String source, List<UpstreamKind> kinds, Set<String> reserved) {
        this.source = source;
        kinds.forEach(k -> this.kinds.put(k.name(), k));
        this.reserved = Set.copyOf(reserved);
    }

    /**
     * Reads the file at {@code path}; errors name it as given.
     *
     * @param reserved paths routes may not take (the operator endpoints)
     */
    public static RouteTable read(Path path, List<UpstreamKind> kinds, Set<String> reserved) throws RouteFileException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RouteFileException(path + ": cannot read the route file: " + e.getMessage());
        }
        return parse(text, path.toString(), kinds, reserved);
    }

    /** The built-in routes, shipped in the jar. */
    public static RouteTable builtIn(List<UpstreamKind> kinds, Set<String> reserved) throws RouteFileException {
        return builtIn(BUILT_IN, kinds, reserved);
    }

    /** A route file shipped in the jar, such as {@link #BUILT_IN_BACKEND}. */
    public static RouteTable builtIn(String resource, List<UpstreamKind> kinds, Set<String> reserved)
            throws RouteFileException {
        try (InputStream in = RouteFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the built-in route file " + resource + " is missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in " + resource.substring(resource.lastIndexOf('/') + 1), kinds, reserved);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses and checks {@code json}; {@code source} names it in errors. */
    public static RouteTable parse(String json, String source, List<UpstreamKind> kinds, Set<String> reserved)
            throws RouteFileException {
        return new RouteFile(source, kinds, reserved).table(json);
    }

    @SuppressWarnings("unchecked")
    private RouteTable table(String json) throws RouteFileException {
        Object root;
        try {
            root = io.loomgate.json.JsonParser.parse(json);
        } catch (IllegalArgumentException e) {
            throw new RouteFileException(source + ": not valid JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new RouteFileException(source + ": must be a JSON object with \"upstreams\" and \"routes\"");
        }
        Fields top = new Fields(source, "$", (Map<String, Object>) map);
        List<Object> upstreamList = top.array("upstreams");
        List<Object> routeList = top.array("routes");
        boolean knobs = top.optionalBoolean("clientKnobs").orElse(false);
        top.finish("a route file", TOP);

        List<UpstreamDecl> upstreams = new ArrayList<>();
        Map<ServiceId, String> declaredAt = new LinkedHashMap<>();
        Map<ServiceId, UpstreamDecl> declared = new LinkedHashMap<>();
        for (int i = 0; i < upstreamList.size(); i++) {
            Fields f = object(upstreamList.get(i), "upstreams[" + i + "]");
            UpstreamDecl u = UpstreamReader.read(f, kinds, source);
            String first = declaredAt.putIfAbsent(u.id(), f.path());
            if (first != null) {
                throw f.error(f.path() + ".id '" + u.id() + "' is declared twice (first at " + first + ")");
            }
            upstreams.add(u);
            declared.put(u.id(), u);
        }
        List<RouteDecl> routes = new ArrayList<>();
        Map<String, String> pathAt = new LinkedHashMap<>();
        Map<String, List<String>> methodsAt = new LinkedHashMap<>();
        for (int i = 0; i < routeList.size(); i++) {
            Fields f = object(routeList.get(i), "routes[" + i + "]");
            RouteDecl r = route(f, declared, knobs);
            List<String> methods = r.isProxy() ? List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS") : r.methods();
            List<String> before = methodsAt.get(r.path());
            if (before != null && before.stream().anyMatch(methods::contains)) {
                throw f.error(f.path() + ".path '" + r.path() + "' is declared twice (first at " + pathAt.get(r.path())
                        + "); one path may have two routes only for different methods");
            }
            methodsAt.computeIfAbsent(r.path(), k -> new ArrayList<>()).addAll(methods);
            pathAt.putIfAbsent(r.path(), f.path());
            PathPattern pattern = PathPattern.of(r.path());
            for (Map.Entry<String, String> other : pathAt.entrySet()) {
                if (!other.getKey().equals(r.path()) && !pattern.isLiteral() && pattern.sameShape(PathPattern.of(other.getKey()))) {
                    throw f.error(f.path() + ".path '" + r.path() + "' matches the same paths as " + other.getValue()
                            + ".path '" + other.getKey() + "' (only a literal segment beats a parameter)");
                }
            }
            routes.add(r);
        }
        return new RouteTable(source, upstreams, routes);
    }

    @SuppressWarnings("unchecked")
    private Fields object(Object value, String path) throws RouteFileException {
        if (!(value instanceof Map<?, ?> m)) {
            throw new RouteFileException(source + ": " + path + " must be an object; got " + Fields.shown(value));
        }
        return new Fields(source, path, (Map<String, Object>) m);
    }

    private RouteDecl route(Fields f, Map<ServiceId, UpstreamDecl> declared, boolean fileKnobs) throws RouteFileException {
        String path = path(f);
        String policy = oneOf(f, "policy", f.string("policy"), POLICIES);
        if (policy.equals("proxy") != path.endsWith("/*")) {
            throw f.bad("path", policy.equals("proxy") ? "must end in /* for policy proxy (e.g. /api/*)"
                    : "may end in /* only for policy proxy", path);
        }
        List<String> params = PathPattern.of(path).parameters();
        if (policy.equals("compose")) {
            return compose(f, path, params, declared, fileKnobs);
        }
        if (f.optionalValue("methods").isPresent() || f.optionalValue("calls").isPresent()) {
            throw f.bad(f.optionalValue("methods").isPresent() ? "methods" : "calls", "is only for policy compose", "policy " + policy);
        }
        String engine = oneOf(f, "engine", f.optionalString("engine").orElse("structured"), ENGINES);
        Optional<String> executor = f.optionalString("executor");
        if (engine.equals("completable-future")) {
            if (executor.isEmpty()) {
                throw f.missing("executor", "one of " + String.join(", ", EXECUTORS) + " with engine completable-future");
            }
            oneOf(f, "executor", executor.get(), EXECUTORS);
            if (!policy.equals("all") && !policy.equals("single")) {
                throw f.bad("policy", "must be all or single with engine completable-future (the baseline fails fast)", policy);
            }
        } else if (executor.isPresent()) {
            throw f.bad("executor", "is only for engine completable-future", executor.get());
        }
        List<ServiceId> upstreams = routeUpstreams(f, declared.keySet());
        for (int i = 0; i < upstreams.size(); i++) {
            UpstreamDecl u = declared.get(upstreams.get(i));
            for (String needed : kinds.get(u.kind()).pathParameters(u.settings())) {
                if (!params.contains(needed)) {
                    throw f.bad("upstreams[" + i + "]", "has a URL with {" + needed + "}, which this route's path does not bind",
                            u.id().value());
                }
            }
        }
        boolean one = policy.equals("single") || policy.equals("proxy");
        if (one && upstreams.size() != 1) {
            throw f.bad("upstreams", "must name exactly one upstream with policy " + policy, upstreams.size() + " upstreams");
        }
        if (policy.equals("proxy") && !declared.get(upstreams.getFirst()).kind().equals("http")) {
            throw f.bad("upstreams[0]", "must be an http upstream with policy proxy", upstreams.getFirst().value());
        }
        if (policy.equals("proxy") && String.valueOf(declared.get(upstreams.getFirst()).settings().get("url")).contains("?")) {
            throw f.bad("upstreams[0]", "must have a URL without a query with policy proxy (the path below the prefix is "
                    + "appended to it)", upstreams.getFirst().value());
        }
        if (policy.equals("proxy") && !engine.equals("structured")) {
            throw f.bad("engine", "is not for policy proxy", engine);
        }
        Map<ServiceId, Object> fallbacks = PolicyReader.fallbacks(f, policy, upstreams);
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), MAX_TIMEOUT);
        String status = oneOf(f, "status", f.optionalString("status").orElse("policy"), STATUSES);
        if (status.equals("passthrough") && !policy.equals("single")) {
            throw f.bad("status", "passthrough needs policy single (one upstream whose status can be passed on)", status);
        }
        int quorum = PolicyReader.quorum(f, policy, upstreams.size());
        Optional<HedgeSettings> hedge = PolicyReader.hedge(f, policy, upstreams.size(), source);
        String answer = oneOf(f, "answer", f.optionalString("answer").orElse("contract"), ANSWERS);
        if (answer.equals("value") && !policy.equals("single")) {
            throw f.bad("answer", "value needs policy single (one upstream whose value is the answer)", answer);
        }
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(fileKnobs);
        if (knobs && policy.equals("proxy")) {
            throw f.bad("clientKnobs", "is not for policy proxy (its query belongs to the upstream)", true);
        }
        f.finish("a route", ROUTE_FIELDS);
        return new RouteDecl(path, policy, engine, executor, upstreams, fallbacks, timeout, status, answer, quorum, hedge,
                knobs, List.of("GET"), Optional.empty(), Map.of());
    }

    /** {@code "policy": "compose"}: calls and an answer instead of upstreams; GET unless it declares its methods. */
    private RouteDecl compose(Fields f, String path, List<String> params, Map<ServiceId, UpstreamDecl> declared,
                              boolean fileKnobs) throws RouteFileException {
        if (f.optionalValue("upstreams").isPresent()) {
            throw f.bad("upstreams", "is not for policy compose: each call names its upstream", "an array");
        }
        Map<String, Object> written = new LinkedHashMap<>();
        f.optionalValue("calls").ifPresent(c -> written.put("calls", c));
        f.optionalValue("answer").ifPresent(a -> written.put("answer", a));
        List<String> methods = ComposeReader.methods(f);
        CallGraph graph = ComposeReader.read(f, source, params, methods, declared, kinds);
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), MAX_TIMEOUT);
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(fileKnobs);
        f.finish("a compose route", List.of("path", "policy", "calls", "answer", "methods", "timeout", "clientKnobs"));
        List<ServiceId> upstreams = graph.calls().stream().map(CallSpec::upstream).distinct().toList();
        return new RouteDecl(path, "compose", "structured", Optional.empty(), upstreams, Map.of(), timeout, "policy",
                "contract", 0, Optional.empty(), knobs, methods, Optional.of(graph), written);
    }

    private String path(Fields f) throws RouteFileException {
        String path = f.string("path");
        String plain = path.endsWith("/*") ? path.substring(0, path.length() - 1) : path;
        if (!path.startsWith("/") || path.length() > MAX_PATH || !plain.chars().allMatch(RouteFile::pathChar)) {
            throw f.bad("path", "must start with '/' and hold at most " + MAX_PATH
                    + " letters, digits and - . _ ~ / {} (and a final /* for a proxy)", path);
        }
        try {
            PathPattern.of(path);
        } catch (IllegalArgumentException e) {
            throw f.bad("path", e.getMessage(), path);
        }
        if (reserved.contains(path) || path.startsWith("/debug/") || path.equals("/*")) {
            throw f.bad("path", "is taken by an operator endpoint (" + String.join(", ", reserved.stream().sorted().toList())
                    + ", /debug/...)", path);
        }
        return path;
    }

    private List<ServiceId> routeUpstreams(Fields f, Set<ServiceId> declared) throws RouteFileException {
        List<Object> names = f.array("upstreams");
        if (names.isEmpty()) {
            throw f.bad("upstreams", "must name at least one upstream", "[]");
        }
        List<ServiceId> ids = new ArrayList<>();
        Set<ServiceId> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String field = "upstreams[" + i + "]";
            if (!(names.get(i) instanceof String name)) {
                throw f.bad(field, "must be an upstream id", names.get(i));
            }
            ServiceId id = id(f, field, name);
            if (!declared.contains(id)) {
                throw f.bad(field, "must be a declared upstream (" + String.join(", ",
                        declared.stream().map(ServiceId::value).toList()) + ")", name);
            }
            if (!seen.add(id)) {
                throw f.bad(field, "names an upstream the route already calls", name);
            }
            ids.add(id);
        }
        return ids;
    }

    static ServiceId id(Fields f, String field, String text) throws RouteFileException {
        if (!ServiceId.isValid(text)) {
            throw f.bad(field, "must be an id of " + ServiceId.ACCEPTED, text);
        }
        return ServiceId.of(text);
    }

    private static String oneOf(Fields f, String field, String value, List<String> allowed) throws RouteFileException {
        if (!allowed.contains(value)) {
            throw f.bad(field, "must be one of " + String.join(", ", allowed), value);
        }
        return value;
    }

    private static boolean pathChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '{' || c == '}';
    }
}
