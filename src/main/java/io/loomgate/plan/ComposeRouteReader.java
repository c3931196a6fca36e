package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.edge.routing.PathPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a composed route ({@code "policy": "compose"}): calls and an answer instead of upstreams
 * ({@link ComposeReader} reads the graph), GET unless it declares its methods.
 */
final class ComposeRouteReader implements RouteKindReader {

    @Override
    public Class<RouteKind.Compose> kind() {
        return RouteKind.Compose.class;
    }

    @Override
    public boolean reads(String policy, PlanModules modules) {
        return policy.equals("compose");
    }

    @Override
    public List<String> policies(PlanModules modules) {
        return List.of("compose");
    }

    @Override
    public RoutePlan read(Fields f, String path, RouteReading reading) throws RouteFileException {
        if (f.optionalValue("upstreams").isPresent()) {
            throw f.bad("upstreams", "is not for policy compose: each call names its upstream", "an array");
        }
        List<String> fields = new ArrayList<>(List.of("path", "policy", "calls", "answer", "methods", "timeout", "clientKnobs",
                "maxBytes"));
        fields.addAll(RouteFields.EDGE);
        f.expect("a compose route", fields);
        Map<String, Object> written = new LinkedHashMap<>();
        for (String field : List.of("calls", "answer", "maxBytes")) {
            f.optionalValue(field).ifPresent(v -> written.put(field, v));
        }
        List<String> methods = ComposeReader.methods(f);
        EdgeDecl edge = EdgeReader.route(f, reading.fileEdge(), reading.modules().authMethods());
        CallGraph graph = ComposeReader.read(f, reading.source(), PathPattern.of(path).parameters(), methods,
                reading.declared(), edge.hasJwt());
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), PlanReader.MAX_TIMEOUT);
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(reading.fileKnobs());
        f.finish("a compose route", fields);
        return new RoutePlan(path, methods, timeout, knobs, new RouteKind.Compose(graph, written), edge);
    }

    @Override
    public void print(RoutePlan r, JsonWriter w) {
        w.field("policy", "compose");
        if (!r.methods().equals(List.of("GET"))) {
            w.name("methods").beginArray();
            r.methods().forEach(w::value);
            w.endArray();
        }
        ((RouteKind.Compose) r.kind()).written().forEach((k, v) -> w.name(k).tree(v));
        r.timeout().ifPresent(t -> w.field("timeout", Durations.format(t)));
        if (r.clientKnobs()) {
            w.field("clientKnobs", true);
        }
    }
}
