package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.edge.routing.PathPattern;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import io.loomgate.rewrite.Cookies;
import io.loomgate.rewrite.HeaderRules;
import io.loomgate.rewrite.PathRewrite;
import io.loomgate.rewrite.RequestValues;
import io.loomgate.core.port.ProxyRules;
import io.loomgate.core.port.TunnelLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A proxy route's rewrites, read and checked: {@code "rewrite"}, {@code "requestHeaders"},
 * {@code "responseHeaders"}, {@code "cookiePath"}, {@code "cookieDomain"} and {@code "tunnel"}.
 */
final class ProxyRulesReader {

    static final List<String> FIELDS = List.of("rewrite", "requestHeaders", "responseHeaders", "cookiePath", "cookieDomain", "tunnel",
            "maxBodyBytes");

    private ProxyRulesReader() {
    }

    static ProxyRules read(Fields f, String path) throws RouteFileException {
        List<String> params = PathPattern.of(path).parameters();
        Optional<PathRewrite> rewrite = Optional.empty();
        Optional<Map<String, Object>> r = f.optionalObject("rewrite");
        if (r.isPresent()) {
            Fields rw = f.nested(f.at("rewrite"), r.get());
            String regex = rw.string("regex");
            String replace = rw.string("replace");
            rw.finish("rewrite", List.of("regex", "replace"));
            try {
                rewrite = Optional.of(PathRewrite.of(regex, replace));
            } catch (IllegalArgumentException e) {
                throw rw.bad("regex", e.getMessage(), regex);
            }
        }
        return new ProxyRules(rewrite, headers(f, "requestHeaders", params), headers(f, "responseHeaders", params),
                new Cookies(strings(f, "cookiePath"), strings(f, "cookieDomain")), tunnel(f),
                f.optionalSize("maxBodyBytes", 0, 64L << 30).orElse(ProxyRules.DEFAULT_MAX_BODY_BYTES));
    }

    private static HeaderRules headers(Fields f, String field, List<String> params) throws RouteFileException {
        Optional<Map<String, Object>> o = f.optionalObject(field);
        if (o.isEmpty()) {
            return HeaderRules.NONE;
        }
        Fields h = f.nested(f.at(field), o.get());
        List<String> remove = h.optionalStrings("remove", HeaderNames::isFillable, HeaderNames.REFUSED);
        Map<String, Template> set = templates(h, "set", params);
        Map<String, Template> add = templates(h, "add", params);
        h.finish(field, List.of("remove", "set", "add"));
        return new HeaderRules(remove, set, add);
    }

    private static Map<String, Template> templates(Fields h, String field, List<String> params) throws RouteFileException {
        Map<String, Template> out = new LinkedHashMap<>();
        Optional<Map<String, Object>> o = h.optionalObject(field);
        if (o.isEmpty()) {
            return out;
        }
        for (Map.Entry<String, Object> e : o.get().entrySet()) {
            String name = e.getKey();
            if (!HeaderNames.isFillable(name)) {
                throw h.bad(field, HeaderNames.REFUSED, name);
            }
            if (!(e.getValue() instanceof String text)) {
                throw h.bad(field + "." + name, "must be a string, perhaps with {header.X}, {query.q}, a path parameter, {caller}"
                        + " or {client.ip}", e.getValue());
            }
            Template t = h.template(field + "." + name, text);
            for (Placeholder p : t.placeholders()) {
                if (!RequestValues.accepts(p, params)) {
                    throw h.bad(field + "." + name, "may hold {header.NAME}, {query.NAME}, {jwt.NAME}, a path parameter, {caller}"
                            + " or {client.ip}, not " + p, text);
                }
            }
            out.put(name, t);
        }
        return out;
    }

    private static Map<String, String> strings(Fields f, String field) throws RouteFileException {
        Optional<Map<String, Object>> o = f.optionalObject(field);
        Map<String, String> out = new LinkedHashMap<>();
        if (o.isEmpty()) {
            return out;
        }
        for (Map.Entry<String, Object> e : o.get().entrySet()) {
            if (!(e.getValue() instanceof String v) || e.getKey().isEmpty() || v.isEmpty()
                    || (e.getKey() + v).chars().anyMatch(c -> c <= 0x20 || c == ';' || c == ',' || c == 0x7f)) {
                throw f.bad(field, "must map a value to its replacement, each without spaces, ';' or ','", e.getKey());
            }
            out.put(e.getKey(), v);
        }
        return out;
    }

    /** {@code "tunnel": {"idleTimeout": "60s", "maxLifetime": "1h"}}, both optional. */
    private static TunnelLimits tunnel(Fields f) throws RouteFileException {
        Optional<Map<String, Object>> o = f.optionalObject("tunnel");
        if (o.isEmpty()) {
            return TunnelLimits.DEFAULT;
        }
        Fields t = f.nested(f.at("tunnel"), o.get());
        TunnelLimits limits = new TunnelLimits(t.optionalDuration("idleTimeout", Duration.ofMillis(10), Duration.ofDays(1)),
                t.optionalDuration("maxLifetime", Duration.ofMillis(10), Duration.ofDays(30)));
        t.finish("tunnel", List.of("idleTimeout", "maxLifetime"));
        return limits;
    }

    /** As {@code --print-routes} writes them back. */
    static void print(ProxyRules rules, JsonWriter w) {
        rules.rewrite().ifPresent(r -> w.name("rewrite").beginObject().field("regex", r.regex().pattern()).field("replace", r.replace())
                .endObject());
        print("requestHeaders", rules.requestHeaders(), w);
        print("responseHeaders", rules.responseHeaders(), w);
        if (!rules.cookies().paths().isEmpty()) {
            w.name("cookiePath").beginObject();
            rules.cookies().paths().forEach(w::field);
            w.endObject();
        }
        if (!rules.cookies().domains().isEmpty()) {
            w.name("cookieDomain").beginObject();
            rules.cookies().domains().forEach(w::field);
            w.endObject();
        }
        if (rules.maxBodyBytes() != ProxyRules.DEFAULT_MAX_BODY_BYTES) {
            w.field("maxBodyBytes", rules.maxBodyBytes());
        }
        TunnelLimits tunnel = rules.tunnel();
        if (!tunnel.equals(TunnelLimits.DEFAULT)) {
            w.name("tunnel").beginObject();
            tunnel.idleTimeout().ifPresent(d -> w.field("idleTimeout", Durations.format(d)));
            tunnel.maxLifetime().ifPresent(d -> w.field("maxLifetime", Durations.format(d)));
            w.endObject();
        }
    }

    private static void print(String name, HeaderRules rules, JsonWriter w) {
        if (rules.isEmpty()) {
            return;
        }
        w.name(name).beginObject();
        if (!rules.remove().isEmpty()) {
            w.name("remove").beginArray();
            new ArrayList<>(rules.remove()).forEach(w::value);
            w.endArray();
        }
        for (String kind : List.of("set", "add")) {
            Map<String, Template> m = kind.equals("set") ? rules.set() : rules.add();
            if (!m.isEmpty()) {
                w.name(kind).beginObject();
                m.forEach((k, v) -> w.field(k, v.toString()));
                w.endObject();
            }
        }
        w.endObject();
    }
}
