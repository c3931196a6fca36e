package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.core.compose.CallSpec;
import io.loomgate.core.compose.ComposeAnswer;
import io.loomgate.core.port.Extensions;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import io.loomgate.edge.routing.PathPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a composed route's {@code calls} and {@code answer} ({@code "policy": "compose"}) into a
 * {@link CallGraph}, checking every placeholder against what the route binds: its path parameters,
 * {@code {query.NAME}}, {@code {header.NAME}}, earlier calls ({@code {user.teamId}}), a forEach's
 * {@code {item}}, and in the answer {@code {errors}}. A call's needs are read from its placeholders;
 * a cycle among them is refused with the calls in it.
 */
final class ComposeReader {

    private static final List<String> CALL_FIELDS = List.of("upstream", "method", "path", "headers", "body", "optional",
            "fallback", "timeout", "forEach", "concurrency", "maxItems", "idempotent");
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH");
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
    private ComposeReader() {
    }

    /** The route's {@code methods}: GET unless it says otherwise. */
    static List<String> methods(Fields route) throws RouteFileException {
        List<String> methods = route.optionalStrings("methods", METHODS::contains, "one of " + String.join(", ", METHODS));
        return methods.isEmpty() ? List.of("GET") : List.copyOf(new LinkedHashSet<>(methods));
    }

    /** @param claims true when the route verifies a JWT, so its templates may use {@code {jwt.NAME}} */
    static CallGraph read(Fields route, String source, List<String> params, List<String> methods,
                          Map<UpstreamId, UpstreamDecl> declared, boolean claims)
            throws RouteFileException {
        Map<String, Object> calls = route.optionalObject("calls")
                .orElseThrow(() -> route.missing("calls", "an object of calls, name to call (policy compose)"));
        if (calls.isEmpty()) {
            throw route.bad("calls", "must declare at least one call", calls);
        }
        List<String> names = new ArrayList<>(calls.keySet());
        List<CallSpec> specs = new ArrayList<>();
        boolean bodyTaken = false;
        for (String name : names) {
            if (!UpstreamId.isValid(name) || PathPattern.RESERVED_NAMES.contains(name) || params.contains(name)) {
                throw route.bad("calls." + name, "must be named with " + UpstreamId.ACCEPTED + ", and not with a path parameter's"
                        + " name or query, header, item, errors, jwt", name);
            }
            if (!(calls.get(name) instanceof Map<?, ?> m)) {
                throw route.bad("calls." + name, "must be an object", calls.get(name));
            }
            @SuppressWarnings("unchecked")
            Fields f = route.nested(route.path() + ".calls." + name, (Map<String, Object>) m);
            CallSpec spec = call(f, name, names, params, methods, declared, bodyTaken, claims);
            bodyTaken |= spec.sendsBody();
            specs.add(spec);
        }
        List<String> cycle = CallGraph.cycle(specs);
        if (!cycle.isEmpty()) {
            throw route.error(route.path() + ".calls has a cycle: " + String.join(" -> ", cycle));
        }
        Object answer = route.optionalValue("answer").map(a -> (Object) a).orElse(null);
        if (answer != null) {
            checkAnswer(route, "answer", answer, names, params, claims);
        }
        long maxBytes = route.optionalSize("maxBytes", 1024, 1L << 31).orElse(CallGraph.DEFAULT_MAX_BYTES);
        return new CallGraph(specs, answer == null ? ComposeAnswer.defaultTemplate(names) : ComposeAnswer.compile(answer), params,
                maxBytes);
    }

    private static CallSpec call(Fields f, String name, List<String> names, List<String> params, List<String> methods,
                                 Map<UpstreamId, UpstreamDecl> declared, boolean bodyTaken,
                                 boolean claims) throws RouteFileException {
        f.expect("a call", CALL_FIELDS);
        String upstreamName = f.string("upstream");
        UpstreamId upstream = RouteFields.id(f, "upstream", upstreamName);
        UpstreamDecl u = declared.get(upstream);
        if (u == null) {
            throw f.bad("upstream", "must be a declared upstream (" + String.join(", ",
                    declared.keySet().stream().map(UpstreamId::value).toList()) + ")", upstreamName);
        }
        List<String> fields = new ArrayList<>(CALL_FIELDS);
        fields.addAll(u.settings().callFields());
        f.expect("a call to a " + u.kind().name() + " upstream", fields);
        for (String needed : u.settings().pathParameters()) {
            if (!params.contains(needed)) {
                throw f.bad("upstream", "has a URL with {" + needed + "}, which this route's path does not bind", upstreamName);
            }
        }
        boolean http = u.settings().takesCallShape();
        Optional<String> body = f.optionalString("body");
        if (body.isPresent() && !body.get().equals("request")) {
            throw f.bad("body", "must be \"request\": the client's own body", body.get());
        }
        boolean sendsBody = body.isPresent();
        Optional<String> declaredMethod = f.optionalString("method");
        Optional<String> pathText = f.optionalString("path");
        Optional<Map<String, Object>> headerTexts = f.optionalObject("headers");
        if (!http && (declaredMethod.isPresent() || pathText.isPresent() || headerTexts.isPresent())) {
            throw f.bad("upstream", "is a " + u.kind().name() + " upstream, which takes no method, path or headers", upstreamName);
        }
        Optional<Object> forEachText = f.optionalValue("forEach");
        Optional<CallSpec.ForEach> forEach = forEach(f, name, names, forEachText);
        boolean isEach = forEach.isPresent();
        Set<String> needs = new LinkedHashSet<>();
        forEach.ifPresent(e -> needs.add(e.source()));
        Optional<Template> path = Optional.empty();
        if (pathText.isPresent()) {
            if (!pathText.get().startsWith("/")) {
                throw f.bad("path", "must start with '/' (it goes below the upstream's URL)", pathText.get());
            }
            path = Optional.of(template(f, "path", pathText.get(), name, names, params, isEach, needs, claims));
        }
        Map<String, Template> headers = new LinkedHashMap<>();
        for (var h : headerTexts.orElse(Map.of()).entrySet()) {
            String field = "headers." + h.getKey();
            if (!HeaderNames.isFillable(h.getKey())) {
                throw f.bad(field, HeaderNames.REFUSED, h.getKey());
            }
            if (!(h.getValue() instanceof String value)) {
                throw f.bad(field, "must be a string", h.getValue());
            }
            headers.put(h.getKey(), template(f, field, value, name, names, params, isEach, needs, claims));
        }
        String method = declaredMethod.orElse(sendsBody ? methods.stream().filter(BODY_METHODS::contains).findFirst().orElse("POST") : "GET");
        if (!METHODS.contains(method)) {
            throw f.bad("method", "must be one of " + String.join(", ", METHODS), method);
        }
        if (sendsBody) {
            if (bodyTaken) {
                throw f.bad("body", "is already the request's for another call: at most one call may carry it", "request");
            }
            if (methods.stream().noneMatch(BODY_METHODS::contains)) {
                throw f.bad("body", "needs a route whose methods take a body (POST, PUT or PATCH)", "request");
            }
        }
        boolean optional = f.optionalBoolean("optional").orElse(false);
        Optional<Object> fallback = f.optionalValue("fallback");
        if (fallback.isPresent() && !optional) {
            throw f.bad("fallback", "is only for an optional call (\"optional\": true)", fallback.get());
        }
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), PlanReader.MAX_TIMEOUT);
        boolean idempotent = f.optionalBoolean("idempotent").orElse(false);
        if (idempotent && sendsBody) {
            throw f.bad("idempotent", "is not for the call that carries the client's body: it is never sent twice", true);
        }
        Extensions extensions = u.settings().readCall(f);
        f.finish("a call to a " + u.kind().name() + " upstream", fields);
        return new CallSpec(name, upstream, method, path, headers, sendsBody, optional, fallback, timeout, forEach, needs,
                idempotent, extensions);
    }

    private static Optional<CallSpec.ForEach> forEach(Fields f, String name, List<String> names, Optional<Object> text)
            throws RouteFileException {
        Optional<Long> concurrency = f.optionalInteger("concurrency", 1, 64);
        Optional<Long> maxItems = f.optionalInteger("maxItems", 1, 10_000);
        if (text.isEmpty()) {
            if (concurrency.isPresent() || maxItems.isPresent()) {
                throw f.bad(concurrency.isPresent() ? "concurrency" : "maxItems", "is only for a forEach call",
                        concurrency.isPresent() ? concurrency.get() : maxItems.get());
            }
            return Optional.empty();
        }
        if (!(text.get() instanceof String s) || s.isEmpty()) {
            throw f.bad("forEach", "must name an array in an earlier call's answer, such as orders.items", text.get());
        }
        if (s.indexOf('{') >= 0 || s.indexOf('}') >= 0) {
            throw f.bad("forEach", "names an earlier call's array without braces, such as orders.items", s);
        }
        Placeholder p;
        try {
            List<Placeholder> found = Template.parse("{" + s + "}").placeholders();
            if (found.size() != 1) {
                throw new IllegalArgumentException(s);
            }
            p = found.getFirst();
        } catch (IllegalArgumentException e) {
            throw f.bad("forEach", "must name an array in an earlier call's answer, such as orders.items", s);
        }
        if (p.head().equals(name) || !names.contains(p.head())) {
            List<String> others = names.stream().filter(n -> !n.equals(name)).toList();
            throw f.bad("forEach", "must start with another call's name (" + (others.isEmpty() ? "this route has no other call"
                    : String.join(", ", others)) + ")", s);
        }
        return Optional.of(new CallSpec.ForEach(p.head(), p.fields(),
                concurrency.map(Long::intValue).orElse(CallSpec.ForEach.DEFAULT_CONCURRENCY),
                maxItems.map(Long::intValue).orElse(CallSpec.ForEach.DEFAULT_MAX_ITEMS)));
    }

    /** A call's path or header: every placeholder must be bound; a call it names becomes a need. */
    private static Template template(Fields f, String field, String text, String self, List<String> names,
                                     List<String> params, boolean isEach, Set<String> needs, boolean claims)
            throws RouteFileException {
        Template t = f.template(field, text);
        for (Placeholder p : t.placeholders()) {
            noClaimsWithoutJwt(f, field, text, p, claims);
            if (Bindings.ofRequest(p, params)) {
                continue;
            }
            if (p.head().equals("item")) {
                if (!isEach) {
                    throw f.bad(field, "uses " + p + ", which only a forEach call has", text);
                }
                continue;
            }
            if (p.head().equals(self)) {
                throw f.bad(field, "uses " + p + ", the call's own answer", text);
            }
            if (!names.contains(p.head())) {
                throw f.bad(field, "uses " + p + ", which names no path parameter of this route, no call, and is not"
                        + " {query.NAME} or {header.NAME}", text);
            }
            needs.add(p.head());
        }
        return t;
    }

    private static void checkAnswer(Fields route, String field, Object json, List<String> names, List<String> params,
                                    boolean claims) throws RouteFileException {
        switch (json) {
            case String s -> {
                Template t = route.template(field, s);
                for (Placeholder p : t.placeholders()) {
                    noClaimsWithoutJwt(route, field, s, p, claims);
                    boolean ok = Bindings.ofRequest(p, params) || names.contains(p.head())
                            || (p.head().equals("errors") && p.fields().isEmpty());
                    if (!ok) {
                        throw route.bad(field, "uses " + p + ", which names no call, no path parameter, and is not"
                                + " {errors}, {query.NAME} or {header.NAME}", s);
                    }
                }
            }
            case Map<?, ?> m -> {
                for (var e : m.entrySet()) {
                    checkAnswer(route, field + "." + e.getKey(), e.getValue(), names, params, claims);
                }
            }
            case List<?> l -> {
                for (int i = 0; i < l.size(); i++) {
                    checkAnswer(route, field + "[" + i + "]", l.get(i), names, params, claims);
                }
            }
            case null, default -> { }
        }
    }

    /** {@code {jwt.NAME}} only where a JWT was verified: anywhere else it would always be empty. */
    private static void noClaimsWithoutJwt(Fields f, String field, String text, Placeholder p, boolean claims)
            throws RouteFileException {
        if (p.head().equals(Bindings.JWT) && !claims) {
            throw f.bad(field, "uses " + p + ", but this route verifies no JWT (\"auth\": {\"jwt\": ...})", text);
        }
    }
}
