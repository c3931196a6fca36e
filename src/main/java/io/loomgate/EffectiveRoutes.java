package io.loomgate;

import io.loomgate.api.Endpoints;
import io.loomgate.config.Config;
import io.loomgate.config.Durations;
import io.loomgate.config.Printable;
import io.loomgate.config.Role;
import io.loomgate.config.ServiceOptions;
import io.loomgate.config.UsageException;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.RouteFileException;
import io.loomgate.plan.Plan;
import io.loomgate.plan.PlanModules;
import io.loomgate.plan.PlanReader;
import io.loomgate.plan.RoutePlan;
import io.loomgate.plan.UpstreamDecl;
import java.util.stream.Collectors;

/**
 * The route table loomgate runs with: the route file ({@code --routes}) or the built-in one, with
 * the {@code --latency} and {@code --failure-rate} overrides applied and checked against
 * {@code --max-timeout}. Every problem is a {@link UsageException}: bad configuration stops the
 * start, never a request.
 */
final class EffectiveRoutes {

    private EffectiveRoutes() {
    }

    static Plan load(Config config, PlanModules modules) throws UsageException {
        Plan table;
        try {
            String builtIn = config.role() == Role.BACKEND ? PlanReader.BUILT_IN_BACKEND : PlanReader.BUILT_IN;
            table = config.routes().isPresent()
                    ? PlanReader.read(config.routes().get(), modules, Endpoints.OPERATOR_PATHS)
                    : PlanReader.builtIn(builtIn, modules, Endpoints.OPERATOR_PATHS);
        } catch (RouteFileException e) {
            throw new UsageException(e.getMessage());
        }
        ServiceOptions o = config.services();
        for (var e : o.latencies().entrySet()) {
            UpstreamDecl u = declared(table, e.getKey(), o.latencyOrigin());
            table = table.with(u.withFaults(u.faults().withLatency(e.getValue())));
        }
        for (var e : o.failureRates().entrySet()) {
            UpstreamDecl u = declared(table, e.getKey(), o.failureRateOrigin());
            table = table.with(u.withFaults(u.faults().withFailureRate(e.getValue())));
        }
        for (int i = 0; i < table.routes().size(); i++) {
            RoutePlan r = table.routes().get(i);
            if (r.timeout().isPresent() && r.timeout().get().compareTo(o.maxTimeout()) > 0) {
                throw new UsageException(table.source() + ": routes[" + i + "].timeout must not exceed --max-timeout ("
                        + Durations.format(o.maxTimeout()) + "); got '" + Durations.format(r.timeout().get()) + "'");
            }
        }
        return table;
    }

    private static UpstreamDecl declared(Plan table, String name, String origin) throws UsageException {
        if (UpstreamId.isValid(name)) {
            var found = table.upstream(UpstreamId.of(name));
            if (found.isPresent()) {
                return found.get();
            }
        }
        String known = table.ids().stream().map(UpstreamId::value).collect(Collectors.joining(", "));
        throw new UsageException(origin + " names an unknown service '" + Printable.shorten(name, 40) + "'; known: " + known);
    }
}
