package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.compose.CallGraph;
import io.loomgate.core.compose.CallSpec;
import io.loomgate.config.Durations;
import io.loomgate.config.Latency;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A checked plan in a few lines, for {@code loomgate check}: its upstreams, its routes with their
 * kinds, and each composed route's calls in the order they can start, with its critical path.
 */
public final class PlanSummary {

    private PlanSummary() {
    }

    public static String of(Plan plan) {
        StringBuilder sb = new StringBuilder();
        sb.append(plan.source()).append(": ok, ").append(count(plan.upstreams().size(), "upstream")).append(", ")
                .append(count(plan.routes().size(), "route")).append('\n');
        for (UpstreamDecl u : plan.upstreams()) {
            sb.append("  upstream ").append(u.id().value()).append(" (").append(u.kind().name());
            if (!u.faults().latency().equals(Latency.NONE)) {
                sb.append(", latency ").append(u.faults().latency().format());
            }
            sb.append(u.breaker().isPresent() ? ", breaker" : "").append(u.retry().attempts() > 1 ? ", retried" : "").append(")\n");
        }
        for (RoutePlan r : plan.routes()) {
            sb.append("  route ").append(String.join(",", r.methods())).append(' ').append(r.path())
                    .append(r.matcher().describe().isEmpty() ? "" : " [" + r.matcher().describe() + "]").append(": ");
            switch (r.kind()) {
                case RouteKind.FanOut f -> sb.append(f.policy().name()).append(" of ").append(ids(f.upstreams()));
                case RouteKind.Proxy p -> sb.append("proxy to ").append(p.upstream().value());
                case RouteKind.Compose c -> sb.append("compose, ").append(count(c.graph().calls().size(), "call"));
            }
            r.timeout().ifPresent(t -> sb.append(", timeout ").append(Durations.format(t)));
            sb.append('\n');
            if (r.kind() instanceof RouteKind.Compose c) {
                compose(sb, c.graph(), plan);
            }
        }
        if (plan.routes().stream().anyMatch(r -> !r.matcher().equals(io.loomgate.edge.routing.RouteMatcher.ANY))) {
            RouteOrder.describe(plan.routes(), sb);
        }
        return sb.toString();
    }

    private static void compose(StringBuilder sb, CallGraph graph, Plan plan) {
        List<CallSpec> order = order(graph);
        sb.append("    calls, in the order they can start:");
        for (CallSpec c : order) {
            sb.append("\n      ").append(c.name()).append(" on ").append(c.upstream().value());
            c.forEach().ifPresent(e -> sb.append(", once per ").append(e));
            if (c.optional()) {
                sb.append(", optional");
            }
            if (!c.needs().isEmpty()) {
                sb.append(", after ").append(graph.calls().stream().map(CallSpec::name).filter(c.needs()::contains)
                        .collect(Collectors.joining(", ")));
            }
        }
        sb.append("\n    critical path: ").append(String.join(" -> ", criticalPath(graph, order, plan))).append('\n');
    }

    /** The calls so that each comes after those it needs; among the ready ones, in the file's order. */
    static List<CallSpec> order(CallGraph graph) {
        List<CallSpec> order = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        while (order.size() < graph.calls().size()) {
            for (CallSpec c : graph.calls()) {
                if (!done.contains(c.name()) && done.containsAll(c.needs())) {
                    order.add(c);
                    done.add(c.name());
                    break;
                }
            }
        }
        return order;
    }

    /**
     * The chain of calls that decides the route's latency: the longest by the upstreams' declared
     * latencies, and among equals (an HTTP upstream declares none) the one with the most calls.
     */
    static List<String> criticalPath(CallGraph graph, List<CallSpec> order, Plan plan) {
        Map<String, long[]> cost = new HashMap<>();   // name -> {declared ms, calls} of the longest chain ending there
        Map<String, String> previous = new HashMap<>();
        String last = null;
        for (CallSpec c : order) {
            long ms = plan.upstream(c.upstream()).map(u -> u.faults().latency().typical().toMillis()).orElse(0L);
            long[] best = {0, 0};
            for (String need : c.needs()) {
                long[] n = cost.get(need);
                if (n[0] > best[0] || (n[0] == best[0] && n[1] > best[1])) {
                    best = n;
                    previous.put(c.name(), need);
                }
            }
            long[] mine = {best[0] + ms, best[1] + 1};
            cost.put(c.name(), mine);
            if (last == null || mine[0] > cost.get(last)[0] || (mine[0] == cost.get(last)[0] && mine[1] > cost.get(last)[1])) {
                last = c.name();
            }
        }
        List<String> path = new ArrayList<>();
        for (String at = last; at != null; at = previous.get(at)) {
            path.addFirst(at);
        }
        return path;
    }

    private static String ids(List<UpstreamId> ids) {
        return ids.stream().map(UpstreamId::value).collect(Collectors.joining(", "));
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
