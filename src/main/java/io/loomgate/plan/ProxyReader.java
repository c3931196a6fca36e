package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.PolicyModule;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.core.port.ProxyRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a proxy route ({@code "policy": "proxy"}): a prefix path, and exactly one upstream that can
 * take a request as it came (an HTTP one, its URL without a query). It has no engine, no client
 * knobs (its query belongs to the upstream), and no policy's fields.
 */
final class ProxyReader implements RouteKindReader {

    @Override
    public Class<RouteKind.Proxy> kind() {
        return RouteKind.Proxy.class;
    }

    @Override
    public boolean reads(String policy, PlanModules modules) {
        return policy.equals("proxy");
    }

    @Override
    public boolean prefixPath() {
        return true;
    }

    @Override
    public List<String> policies(PlanModules modules) {
        return List.of("proxy");
    }

    @Override
    public RoutePlan read(Fields f, String path, RouteReading reading) throws RouteFileException {
        RouteFields.refuseOtherKinds(f, "proxy");
        Optional<String> engine = f.optionalString("engine");
        if (engine.isPresent() && !engine.get().equals("structured")) {
            throw f.bad("engine", "is not for policy proxy", engine.get());
        }
        if (f.optionalString("executor").isPresent()) {
            throw f.bad("executor", "is not for policy proxy", f.optionalString("executor").get());
        }
        List<UpstreamId> upstreams = RouteFields.upstreams(f, reading);
        if (upstreams.size() != 1) {
            throw f.bad("upstreams", "must name exactly one upstream with policy proxy", upstreams.size() + " upstreams");
        }
        Optional<String> cannot = reading.declared().get(upstreams.getFirst()).settings().cannotForward();
        if (cannot.isPresent()) {
            throw f.bad("upstreams[0]", cannot.get(), upstreams.getFirst().value());
        }
        for (PolicyModule policy : reading.modules().policies()) {
            policy.refuseOn(f, "proxy");
        }
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), PlanReader.MAX_TIMEOUT);
        if (f.optionalBoolean("clientKnobs").orElse(false)) {
            throw f.bad("clientKnobs", "is not for policy proxy (its query belongs to the upstream)", true);
        }
        ProxyRules rules = ProxyRulesReader.read(f, path);
        EdgeDecl edge = EdgeReader.route(f, reading.fileEdge(), reading.modules().authMethods());
        List<String> methods = RouteFields.methods(f, RouteFields.METHODS);
        List<String> fields = new ArrayList<>(List.of("path", "policy", "upstreams", "timeout", "methods"));
        fields.addAll(ProxyRulesReader.FIELDS);
        fields.addAll(RouteFields.EDGE);
        f.finish("a proxy route", fields);
        return new RoutePlan(path, methods, timeout, false,
                new RouteKind.Proxy(upstreams.getFirst(), rules), edge);
    }

    @Override
    public void print(RoutePlan r, JsonWriter w) {
        w.field("policy", "proxy").name("upstreams").beginArray().value(((RouteKind.Proxy) r.kind()).upstream().value()).endArray();
        r.timeout().ifPresent(t -> w.field("timeout", Durations.format(t)));
        ProxyRulesReader.print(((RouteKind.Proxy) r.kind()).rules(), w);
    }
}
