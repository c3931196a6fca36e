package io.loomgate.plan;

import io.loomgate.config.Durations;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.fanout.PolicyModule;
import io.loomgate.core.fanout.PolicySpec;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.edge.routing.PathPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a fan-out route ({@code "policy"} naming a registered {@link PolicyModule}): its upstreams,
 * its engine, how it answers, and its policy's own fields, which the policy's module reads.
 */
final class FanOutReader implements RouteKindReader {

    private static final List<String> STATUSES = List.of("policy", "passthrough");
    private static final List<String> ANSWERS = List.of("contract", "value");

    @Override
    public Class<RouteKind.FanOut> kind() {
        return RouteKind.FanOut.class;
    }

    @Override
    public boolean reads(String policy, PlanModules modules) {
        return modules.policy(policy).isPresent();
    }

    @Override
    public List<String> policies(PlanModules modules) {
        return modules.policies().stream().map(PolicyModule::name).toList();
    }

    @Override
    public RoutePlan read(Fields f, String path, RouteReading reading) throws RouteFileException {
        String policyName = f.string("policy");
        PolicyModule policy = reading.modules().policy(policyName).orElseThrow();
        RouteFields.refuseOtherKinds(f, policyName);
        String engine = RouteFields.oneOf(f, "engine", f.optionalString("engine").orElse("structured"),
                List.copyOf(reading.modules().engines().keySet()));
        List<String> executors = reading.modules().engines().get(engine);
        Optional<String> executor = f.optionalString("executor");
        if (!executors.isEmpty()) {
            if (executor.isEmpty()) {
                throw f.missing("executor", "one of " + String.join(", ", executors) + " with engine " + engine);
            }
            RouteFields.oneOf(f, "executor", executor.get(), executors);
        } else if (executor.isPresent()) {
            throw f.bad("executor", "is only for engine " + String.join(", ", reading.modules().engines().entrySet().stream()
                    .filter(e -> !e.getValue().isEmpty()).map(java.util.Map.Entry::getKey).toList()), executor.get());
        }
        List<UpstreamId> upstreams = RouteFields.upstreams(f, reading);
        RouteFields.boundParameters(f, upstreams, PathPattern.of(path).parameters(), reading);
        PolicySpec spec = policy.read(f, upstreams);
        for (PolicyModule other : reading.modules().policies()) {
            if (other != policy) {
                other.refuseOn(f, policyName);
            }
        }
        if (!executors.isEmpty() && !spec.stopsAtFirstFailure()) {
            throw f.bad("policy", "must be all or single with engine " + engine + " (the baseline fails fast)", policyName);
        }
        Optional<Duration> timeout = f.optionalDuration("timeout", Duration.ofMillis(1), PlanReader.MAX_TIMEOUT);
        String status = RouteFields.oneOf(f, "status", f.optionalString("status").orElse("policy"), STATUSES);
        if (status.equals("passthrough") && !spec.oneUpstream()) {
            throw f.bad("status", "passthrough needs policy single (one upstream whose status can be passed on)", status);
        }
        String answer = RouteFields.oneOf(f, "answer", f.optionalString("answer").orElse("contract"), ANSWERS);
        if (answer.equals("value") && !spec.oneUpstream()) {
            throw f.bad("answer", "value needs policy single (one upstream whose value is the answer)", answer);
        }
        boolean knobs = f.optionalBoolean("clientKnobs").orElse(reading.fileKnobs());
        EdgeDecl edge = EdgeReader.route(f, reading.fileEdge(), reading.modules().authMethods());
        List<String> methods = RouteFields.methods(f, List.of("GET"));
        List<String> fields = new ArrayList<>(List.of("path", "policy", "engine", "executor", "upstreams", "timeout", "status",
                "answer", "clientKnobs", "methods"));
        reading.modules().policies().forEach(p -> fields.addAll(p.fields()));
        fields.addAll(RouteFields.EDGE);
        f.finish("a route", fields);
        return new RoutePlan(path, methods, timeout, knobs, new RouteKind.FanOut(upstreams, spec, engine, executor,
                status.equals("passthrough"), answer.equals("value")), edge);
    }

    @Override
    public void print(RoutePlan r, JsonWriter w) {
        RouteKind.FanOut k = (RouteKind.FanOut) r.kind();
        w.field("policy", k.policy().name()).field("engine", k.engine());
        k.executor().ifPresent(e -> w.field("executor", e));
        w.name("upstreams").beginArray();
        k.upstreams().forEach(id -> w.value(id.value()));
        w.endArray();
        k.policy().print(w);
        r.timeout().ifPresent(t -> w.field("timeout", Durations.format(t)));
        if (k.passthrough()) {
            w.field("status", "passthrough");
        }
        if (k.valueOnly()) {
            w.field("answer", "value");
        }
        if (r.clientKnobs()) {
            w.field("clientKnobs", true);
        }
    }
}
