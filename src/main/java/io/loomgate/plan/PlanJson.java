package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.edge.routing.RouteMatcher;
import io.loomgate.json.JsonWriter;
import io.loomgate.upstream.RetrySettings;
import java.util.List;

/**
 * A plan written back as a route file, one upstream or route per line: what {@code --print-routes}
 * prints. Defaults are spelled out (engine, latency, failure rate), so the output is the effective
 * plan, and reading it back gives the same plan. Each upstream kind, policy and kind of route
 * prints its own fields.
 */
public final class PlanJson {

    private PlanJson() {
    }

    public static String write(Plan plan, PlanModules modules) {
        StringBuilder sb = new StringBuilder("{");
        if (plan.authenticates()) {
            JsonWriter w = new JsonWriter();
            plan.authFailures().ifPresentOrElse(a -> {
                w.beginObject().name("burst").value(a.burst());
                w.name("perSecond").preciseValue(a.perSecond());
                w.name("maxKeys").value(a.maxKeys());
                w.endObject();
            }, () -> w.value("off"));
            sb.append("\"authFailures\": ").append(w).append(",\n ");
        }
        sb.append("\"upstreams\": [\n");
        lines(sb, plan.upstreams().stream().map(PlanJson::upstream).toList());
        sb.append("],\n \"routes\": [\n");
        lines(sb, plan.routes().stream().map(r -> route(r, modules)).toList());
        return sb.append("]}\n").toString();
    }

    /**
     * The plan as a JSON tree with its secrets hidden, for the admin API: an upstream URL's query
     * (it may carry a key) and every header value a call sets that is not just a placeholder (it may
     * be a token a variable filled in) read {@value #REDACTED}.
     */
    public static Object redacted(Plan plan, PlanModules modules) {
        return redact(io.loomgate.json.JsonParser.parse(write(plan, modules)), "");
    }

    static final String REDACTED = "[redacted]";

    private static Object redact(Object tree, String key) {
        return switch (tree) {
            case java.util.Map<?, ?> m -> {
                java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
                m.forEach((k, v) -> out.put((String) k, key.equals("headers") && v instanceof String s && !s.matches("\\{[^{}]*}")
                        ? REDACTED : redact(v, (String) k)));
                yield out;
            }
            case List<?> l -> l.stream().map(v -> redact(v, key)).toList();
            case String s when key.equals("url") && s.indexOf('?') >= 0 -> s.substring(0, s.indexOf('?') + 1) + REDACTED;
            case null, default -> tree;
        };
    }

    private static void lines(StringBuilder sb, List<String> items) {
        for (int i = 0; i < items.size(); i++) {
            sb.append("  ").append(items.get(i)).append(i + 1 < items.size() ? ",\n" : "\n");
        }
    }

    static String upstream(UpstreamDecl u) {
        JsonWriter w = new JsonWriter().beginObject().field("id", u.id().value()).field("kind", u.kind().name());
        u.settings().print(w);
        w.field("latency", u.faults().latency().format());
        w.name("failureRate").preciseValue(u.faults().failureRate());
        u.breaker().ifPresent(b -> {
            w.name("breaker").beginObject().field("consecutiveFailures", b.consecutiveFailures());
            w.name("failureRate").preciseValue(b.failureRate());
            w.field("window", b.window()).field("coolDown", Durations.format(b.coolDown())).endObject();
        });
        if (!u.retry().equals(RetrySettings.NONE)) {
            w.name("retry").beginObject().field("attempts", u.retry().attempts())
                    .field("backoff", Durations.format(u.retry().backoff()));
            w.name("budget").preciseValue(u.retry().budget());
            w.name("minPerSecond").preciseValue(u.retry().minPerSecond());
            w.endObject();
        }
        return w.endObject().toString();
    }

    private static List<String> defaultMethods(RoutePlan r) {
        return r.kind() instanceof RouteKind.Proxy ? RouteFields.METHODS : List.of("GET");
    }

    static String route(RoutePlan r, PlanModules modules) {
        JsonWriter w = new JsonWriter().beginObject().field("path", r.path());
        modules.routeKinds().stream().filter(k -> k.kind().isInstance(r.kind())).findFirst().orElseThrow().print(r, w);
        r.edge().written().forEach((k, v) -> w.name(k).tree(v));
        RouteMatcher m = r.matcher();
        if (!(r.kind() instanceof RouteKind.Compose) && !r.methods().equals(defaultMethods(r))) {
            w.name("methods").beginArray();
            r.methods().forEach(w::value);
            w.endArray();
        }
        if (!m.hosts().isEmpty()) {
            w.name("host").beginArray();
            m.hosts().forEach(w::value);
            w.endArray();
        }
        if (m.conditions() > 0) {
            w.name("match").beginObject();
            if (!m.headers().isEmpty()) {
                w.name("headers").beginObject();
                m.headers().forEach(w::field);
                w.endObject();
            }
            if (!m.query().isEmpty()) {
                w.name("query").beginObject();
                m.query().forEach(w::field);
                w.endObject();
            }
            w.endObject();
        }
        return w.endObject().toString();
    }
}
