package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What every kind of route reads the same way: its upstreams, a choice among names, the edge's fields. */
final class RouteFields {

    /** The edge's fields, which every route may have ({@link EdgeReader}). */
    static final List<String> EDGE = List.of("auth", "rateLimit", "preAuthLimit", "cors");

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
        if (f.optionalValue("methods").isPresent() || f.optionalValue("calls").isPresent()) {
            throw f.bad(f.optionalValue("methods").isPresent() ? "methods" : "calls", "is only for policy compose", "policy " + policy);
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
