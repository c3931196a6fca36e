package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.edge.routing.RouteMatcher;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What every kind of route reads the same way: its upstreams, a choice among names, the edge's fields. */
final class RouteFields {

    /** The edge's fields, and what it matches besides its path, which every route may have ({@link EdgeReader}). */
    static final List<String> EDGE = List.of("auth", "rateLimit", "preAuthLimit", "cors", "compress", "host", "match");

    /** The methods a route may serve. */
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    private RouteFields() {
    }

    /** {@code "upstreams"}: at least one, each declared, none twice. */
    static List<UpstreamId> upstreams(Fields f, RouteReading reading) throws RouteFileException {
        Set<UpstreamId> declared = reading.declared().keySet();
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
            UpstreamId id = id(f, field, name);
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

    /** Every path parameter the upstreams' URLs need is one the route's path binds. */
    static void boundParameters(Fields f, List<UpstreamId> upstreams, List<String> params, RouteReading reading)
            throws RouteFileException {
        for (int i = 0; i < upstreams.size(); i++) {
            UpstreamDecl u = reading.declared().get(upstreams.get(i));
            for (String needed : u.settings().pathParameters()) {
                if (!params.contains(needed)) {
                    throw f.bad("upstreams[" + i + "]", "has a URL with {" + needed + "}, which this route's path does not bind",
                            u.id().value());
                }
            }
        }
    }

    /** A composed route's own fields on a route of another kind. */
    static void refuseOtherKinds(Fields f, String policy) throws RouteFileException {
        if (f.optionalValue("calls").isPresent()) {
            throw f.bad("calls", "is only for policy compose", "policy " + policy);
        }
    }

    /** {@code "methods"}: some of {@link #METHODS}, each once, or {@code otherwise}. */
    static List<String> methods(Fields f, List<String> otherwise) throws RouteFileException {
        List<String> methods = f.optionalStrings("methods", METHODS::contains, "one of " + String.join(", ", METHODS));
        if (f.optionalValue("methods").isPresent() && methods.isEmpty()) {
            throw f.bad("methods", "must name at least one method", "[]");
        }
        return methods.isEmpty() ? otherwise : List.copyOf(new java.util.LinkedHashSet<>(methods));
    }

    /**
     * {@code "host"} (a name or an array of names, exact or {@code *.name}) and {@code "match":
     * {"headers": {...}, "query": {...}}} (exact values, or {@code "*"} for present).
     */
    static RouteMatcher matcher(Fields f) throws RouteFileException {
        List<String> hosts = new ArrayList<>();
        Object host = f.optionalValue("host").orElse(null);
        if (host instanceof String one) {
            hosts.add(one);
        } else if (host instanceof List<?> many && !many.isEmpty()) {
            for (Object h : many) {
                if (!(h instanceof String s)) {
                    throw f.bad("host", "must be a host name or an array of them", host);
                }
                hosts.add(s);
            }
        } else if (host != null) {
            throw f.bad("host", "must be a host name or an array of them", host);
        }
        for (String h : hosts) {
            if (!RouteMatcher.validHost(h.toLowerCase(java.util.Locale.ROOT))) {
                throw f.bad("host", "must be host names (api.example.com) or one leading wildcard (*.example.com), without a port", h);
            }
        }
        java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
        java.util.Map<String, String> query = new java.util.LinkedHashMap<>();
        Optional<java.util.Map<String, Object>> match = f.optionalObject("match");
        if (match.isPresent()) {
            Fields m = f.nested(f.at("match"), match.get());
            conditions(m, "headers", headers, true);
            conditions(m, "query", query, false);
            m.finish("match", List.of("headers", "query"));
        }
        return new RouteMatcher(hosts, headers, query);
    }

    private static void conditions(Fields m, String field, java.util.Map<String, String> into, boolean headerNames)
            throws RouteFileException {
        Optional<java.util.Map<String, Object>> o = m.optionalObject(field);
        if (o.isEmpty()) {
            return;
        }
        for (java.util.Map.Entry<String, Object> e : o.get().entrySet()) {
            String name = e.getKey();
            boolean goodName = headerNames ? io.loomgate.module.HeaderNames.isName(name) : !name.isEmpty() && name.length() <= 256;
            if (!goodName) {
                throw m.bad(field, "must name " + (headerNames ? "headers" : "query parameters") + " by valid names", name);
            }
            if (!(e.getValue() instanceof String v) || v.length() > 1024 || v.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw m.bad(field + "." + name, "must be the exact value, or \"*\" for present", e.getValue());
            }
            into.put(name, v);
        }
    }

    static String oneOf(Fields f, String field, String value, List<String> allowed) throws RouteFileException {
        if (!allowed.contains(value)) {
            throw f.bad(field, "must be one of " + String.join(", ", allowed), value);
        }
        return value;
    }

    static UpstreamId id(Fields f, String field, String text) throws RouteFileException {
        if (!UpstreamId.isValid(text)) {
            throw f.bad(field, "must be an id of " + UpstreamId.ACCEPTED, text);
        }
        return UpstreamId.of(text);
    }
}
