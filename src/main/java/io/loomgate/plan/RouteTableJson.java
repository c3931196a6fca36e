package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.json.JsonWriter;
import io.loomgate.upstream.RetrySettings;
import java.util.List;

/**
 * A route table written back as a route file, one upstream or route per line: what
 * {@code --print-routes} prints. Defaults are spelled out (engine, latency, failure rate), so the
 * output is the effective table, and reading it back gives the same table.
 */
public final class RouteTableJson {

    private RouteTableJson() {
    }

    public static String write(RouteTable table) {
        StringBuilder sb = new StringBuilder("{\"upstreams\": [\n");
        lines(sb, table.upstreams().stream().map(RouteTableJson::upstream).toList());
        sb.append("],\n \"routes\": [\n");
        lines(sb, table.routes().stream().map(RouteTableJson::route).toList());
        return sb.append("]}\n").toString();
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

    static String route(RouteDecl r) {
        if (r.isCompose()) {
            return compose(r);
        }
        JsonWriter w = new JsonWriter().beginObject()
                .field("path", r.path()).field("policy", r.policy()).field("engine", r.engine());
        r.executor().ifPresent(e -> w.field("executor", e));
        w.name("upstreams").beginArray();
        r.upstreams().forEach(id -> w.value(id.value()));
        w.endArray();
        if (!r.fallbacks().isEmpty()) {
            w.name("fallbacks").beginObject();
            r.fallbacks().forEach((id, v) -> w.name(id.value()).tree(v));
            w.endObject();
        }
        if (r.quorum() > 0) {
            w.field("quorum", r.quorum());
        }
        r.hedge().ifPresent(h -> {
            w.name("hedge").beginObject().field("after", h.afterText());
            if (h.adaptive()) {
                w.field("floor", Durations.format(h.after()));
            }
            w.name("budget").preciseValue(h.budget());
            w.name("minPerSecond").preciseValue(h.minPerSecond());
            w.endObject();
        });
        r.timeout().ifPresent(t -> w.field("timeout", Durations.format(t)));
        if (r.passesStatusThrough()) {
            w.field("status", r.status());
        }
        if (r.answersWithValue()) {
            w.field("answer", r.answer());
        }
        if (r.clientKnobs()) {
            w.field("clientKnobs", true);
        }
        r.edge().written().forEach((k, v) -> w.name(k).tree(v));
        return w.endObject().toString();
    }

    /** A composed route: its calls and answer as the file wrote them. */
    private static String compose(RouteDecl r) {
        JsonWriter w = new JsonWriter().beginObject().field("path", r.path()).field("policy", r.policy());
        if (!r.methods().equals(java.util.List.of("GET"))) {
            w.name("methods").beginArray();
            r.methods().forEach(w::value);
            w.endArray();
        }
        r.declared().forEach((k, v) -> w.name(k).tree(v));
        r.timeout().ifPresent(t -> w.field("timeout", Durations.format(t)));
        if (r.clientKnobs()) {
            w.field("clientKnobs", true);
        }
        r.edge().written().forEach((k, v) -> w.name(k).tree(v));
        return w.endObject().toString();
    }
}
