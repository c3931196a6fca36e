package io.loomgate.load;

import io.loomgate.Modules;
import io.loomgate.api.Endpoints;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.module.RouteFileException;
import io.loomgate.plan.Plan;
import io.loomgate.plan.PlanReader;
import io.loomgate.plan.RoutePlan;
import io.loomgate.plan.UpstreamDecl;
import io.loomgate.upstream.http.HttpKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The latency an endpoint is built to have, read from the built-in route table: the basis of its
 * Little's-law bound (connections / latency). A route waits for its slowest part, except under
 * {@code any}, where it waits for its fastest. Routes whose time is CPU or I/O, not an injected
 * latency, have none.
 */
final class DesignedLatency {

    private static final Plan BUILT_IN = builtIn();

    private DesignedLatency() {
    }

    static Optional<Duration> of(String endpoint) {
        if (endpoint.startsWith("/block?ms=")) {
            return Optional.of(Duration.ofMillis(Long.parseLong(endpoint.substring("/block?ms=".length()))));
        }
        Optional<RoutePlan> route = BUILT_IN.routes().stream().filter(r -> r.path().equals(endpoint)).findFirst();
        if (route.isEmpty()) {
            return Optional.empty();
        }
        List<Duration> latencies = route.get().upstreams().stream()
                .map(id -> BUILT_IN.upstream(id).map(UpstreamDecl::faults).orElseThrow().latency().typical())
                .sorted().toList();
        Duration designed = route.get().kind() instanceof io.loomgate.plan.RouteKind.FanOut f && f.policy().name().equals("any")
                ? latencies.getFirst() : latencies.getLast();
        return designed.isZero() ? Optional.empty() : Optional.of(designed);
    }

    /** The bare server's endpoint that does the same waiting: {@code /block?ms=N}, or {@code /hello}. */
    static String bareEquivalent(String endpoint) {
        return of(endpoint).map(d -> "/block?ms=" + d.toMillis()).orElse("/hello");
    }

    private static Plan builtIn() {
        try (SimulatedKind simulated = new SimulatedKind();
             HttpKind http = new HttpKind(io.loomgate.config.AddressRanges.NONE)) {
            return PlanReader.builtIn(Modules.of(simulated, http), Endpoints.OPERATOR_PATHS);
        } catch (RouteFileException | java.io.IOException e) {
            throw new IllegalStateException("the built-in route file does not parse: " + e.getMessage(), e);
        }
    }
}
