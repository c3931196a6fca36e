package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.core.compose.CallSpec;
import io.loomgate.core.fanout.HedgeSettings;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.routing.PathPattern;
import io.loomgate.upstream.UpstreamKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one route of a route file, after its path: a fan-out or proxy route's upstreams and policy,
 * or a composed route's calls ({@link ComposeReader}), and its edge ({@link EdgeReader}).
 */
final class RouteReader {

    private static final List<String> ROUTE_FIELDS = List.of("path", "policy", "engine", "executor", "upstreams",
            "fallbacks", "timeout", "status", "answer", "quorum", "hedge", "clientKnobs", "calls", "methods",
            "auth", "rateLimit", "preAuthLimit", "cors");

    private final String source;
    private final Map<String, UpstreamKind> kinds;
    private final Map<UpstreamId, UpstreamDecl> declared;
    private final boolean fileKnobs;
    private final EdgeDecl fileEdge;

    /**
     * @param fileKnobs the file's {@code clientKnobs}
     * @param fileEdge  the file's own {@code auth} and {@code cors}
     */
    RouteReader(String source, Map<String, UpstreamKind> kinds, Map<UpstreamId, UpstreamDecl> declared, boolean fileKnobs,
                EdgeDecl fileEdge) {
        this.source = source;
        this.kinds = kinds;
        this.declared = declared;
        this.fileKnobs = fileKnobs;
        this.fileEdge = fileEdge;
    }

    RouteDecl route(Fields f, String path) throws RouteFileException {
        String policy = oneOf(f, "policy", f.string("policy"), RouteFile.POLICIES);
        if (policy.equals("proxy") != path.endsWith("/*")) {
            throw f.bad("path", policy.equals("proxy") ? "must end in /* for policy proxy (e.g. /api/*)"
                    : "may end in /* only for policy proxy", path);
        }
        List<String> params = PathPattern.of(path).parameters();
        if (policy.equals("compose")) {
            return compose(f, path, params);
        }
        if (f.optionalValue("methods").isPresent() || f.optionalValue("calls").isPresent()) {
            throw f.bad(f.optionalValue("methods").isPresent() ? "methods" : "calls", "is only for policy compose", "policy " + policy);
        }
        String engine = oneOf(f, "engine", f.optionalString("engine").orElse("structured"), RouteFile.ENGINES);
        Optional<String> executor = f.optionalString("executor");
        if (engine.equals("completable-future")) {
            if (executor.isEmpty()) {
                throw f.missing("executor", "one of " + String.join(", ", RouteFile.EXECUTORS) + " with engine completable-future");
            }
            oneOf(f, "executor", executor.get(), RouteFile.EXECUTORS);
            if (!policy.equals("all") && !policy.equals("single")) {
                throw f.bad("policy", "must be all or single with engine completable-future (the baseline fails fast)", policy);
            }
        } else if (executor.isPresent()) {
            throw f.bad("executor", "is only for engine completable-future", executor.get());
        }
        List<UpstreamId> upstreams = routeUpstreams(f);
        for (int i = 0; i < upstreams.size(); i++) {
            UpstreamDecl u = declared.get(upstreams.get(i));
            for (String needed : u.settings().pathParameters()) {
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
        if (policy.equals("proxy")) {
            Optional<String> cannot = declared.get(upstreams.getFirst()).settings().cannotForward();
            if (cannot.isPresent()) {
                throw f.bad("upstreams[0]", cannot.get(), upstreams.getFirst().value());
            }
        }
        if (policy.equals("proxy") && !engine.equals("structured")) {
            throw f.bad("engine", "is not for policy proxy", engine);
        }
        Map<UpstreamId, Object> fallbacks = PolicyReader.fallbacks(f, policy, upstreams);
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), RouteFile.MAX_TIMEOUT);
        String status = oneOf(f, "status", f.optionalString("status").orElse("policy"), RouteFile.STATUSES);
        if (status.equals("passthrough") && !policy.equals("single")) {
            throw f.bad("status", "passthrough needs policy single (one upstream whose status can be passed on)", status);
        }
        int quorum = PolicyReader.quorum(f, policy, upstreams.size());
        Optional<HedgeSettings> hedge = PolicyReader.hedge(f, policy, upstreams.size(), source);
        String answer = oneOf(f, "answer", f.optionalString("answer").orElse("contract"), RouteFile.ANSWERS);
        if (answer.equals("value") && !policy.equals("single")) {
            throw f.bad("answer", "value needs policy single (one upstream whose value is the answer)", answer);
        }
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(fileKnobs);
        if (knobs && policy.equals("proxy")) {
            throw f.bad("clientKnobs", "is not for policy proxy (its query belongs to the upstream)", true);
        }
        EdgeDecl edge = EdgeReader.route(f, fileEdge);
        f.finish("a route", ROUTE_FIELDS);
        return new RouteDecl(path, policy, engine, executor, upstreams, fallbacks, timeout, status, answer, quorum, hedge,
                knobs, List.of("GET"), Optional.empty(), Map.of(), edge);
    }

    /** {@code "policy": "compose"}: calls and an answer instead of upstreams; GET unless it declares its methods. */
    private RouteDecl compose(Fields f, String path, List<String> params) throws RouteFileException {
        if (f.optionalValue("upstreams").isPresent()) {
            throw f.bad("upstreams", "is not for policy compose: each call names its upstream", "an array");
        }
        Map<String, Object> written = new LinkedHashMap<>();
        f.optionalValue("calls").ifPresent(c -> written.put("calls", c));
        f.optionalValue("answer").ifPresent(a -> written.put("answer", a));
        f.optionalValue("maxBytes").ifPresent(m -> written.put("maxBytes", m));
        List<String> methods = ComposeReader.methods(f);
        EdgeDecl edge = EdgeReader.route(f, fileEdge);
        CallGraph graph = ComposeReader.read(f, source, params, methods, declared, kinds, edge.hasJwt());
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), RouteFile.MAX_TIMEOUT);
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(fileKnobs);
        f.finish("a compose route", List.of("path", "policy", "calls", "answer", "methods", "timeout", "clientKnobs",
                "maxBytes", "auth", "rateLimit", "preAuthLimit", "cors"));
        List<UpstreamId> upstreams = graph.calls().stream().map(CallSpec::upstream).distinct().toList();
        return new RouteDecl(path, "compose", "structured", Optional.empty(), upstreams, Map.of(), timeout, "policy",
                "contract", 0, Optional.empty(), knobs, methods, Optional.of(graph), written, edge);
    }

    private List<UpstreamId> routeUpstreams(Fields f) throws RouteFileException {
        Set<UpstreamId> declared = this.declared.keySet();
        List<Object> names = f.array("upstreams");
        if (names.isEmpty()) {
            throw f.bad("upstreams", "must name at least one upstream", "[]");
        }
        List<UpstreamId> ids = new ArrayList<>();
        Set<UpstreamId> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String field = "upstreams[" + i + "]";
            if (!(names.get(i) instanceof String name)) {
                throw f.bad(field, "must be an upstream id", names.get(i));
            }
            UpstreamId id = RouteFile.id(f, field, name);
            if (!declared.contains(id)) {
                throw f.bad(field, "must be a declared upstream (" + String.join(", ",
                        declared.stream().map(UpstreamId::value).toList()) + ")", name);
            }
            if (!seen.add(id)) {
                throw f.bad(field, "names an upstream the route already calls", name);
            }
            ids.add(id);
        }
        return ids;
    }

    private static String oneOf(Fields f, String field, String value, List<String> allowed) throws RouteFileException {
        if (!allowed.contains(value)) {
            throw f.bad(field, "must be one of " + String.join(", ", allowed), value);
        }
        return value;
    }

}
