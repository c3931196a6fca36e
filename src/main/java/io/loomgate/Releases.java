package io.loomgate;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.plan.UpstreamDecl;
import io.loomgate.core.port.Upstream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a reload changed among the upstreams, and the release of those it left: a removed or
 * changed upstream is drained (its calls in flight, on requests that began on the old plan, end)
 * and then its kind lets go of what it kept for it (idle pooled connections), unless an upstream of
 * the new plan shares that. The wait is bounded by {@code --max-timeout}: no request outlives it.
 */
final class Releases {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private Releases() {
    }

    /** Starts the release of what {@code next} no longer serves as {@code before} did; says what changed. */
    static String after(ServingPlan before, ServingPlan next, Map<UpstreamId, Upstream> replaced, Duration maxTimeout) {
        Set<UpstreamId> kept = Set.copyOf(ServingPlan.unchanged(before.plan(), next.plan(), replaced));
        Set<UpstreamId> now = Set.copyOf(next.plan().ids());
        List<UpstreamDecl> left = before.plan().upstreams().stream().filter(u -> !kept.contains(u.id())).toList();
        long removed = left.stream().filter(u -> !now.contains(u.id())).count();
        long changed = left.size() - removed;
        long added = next.plan().upstreams().stream().filter(u -> before.plan().upstream(u.id()).isEmpty()).count();
        if (!left.isEmpty()) {
            Thread.ofVirtual().name("loomgate-release").start(() -> release(before, next, left, maxTimeout));
        }
        return next.plan().routes().size() + " routes, " + next.plan().upstreams().size() + " upstreams (" + kept.size()
                + " kept with their state, " + added + " added, " + changed + " changed, " + removed + " removed)";
    }

    private static void release(ServingPlan before, ServingPlan next, List<UpstreamDecl> left, Duration maxTimeout) {
        long until = System.nanoTime() + maxTimeout.toNanos();
        try {
            while (left.stream().anyMatch(u -> before.upstreams().calls().inFlight(u.id()) > 0) && System.nanoTime() < until) {
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            return;
        }
        Set<String> shared = next.plan().upstreams().stream()
                .map(u -> u.kind().pool(u.settings()).map(p -> u.kind().name() + " " + p).orElse(null))
                .filter(Objects::nonNull).collect(Collectors.toSet());
        for (UpstreamDecl u : left) {
            before.upstreams().deactivate(u.id());   // its health checks stop
            boolean inUse = u.kind().pool(u.settings()).map(p -> shared.contains(u.kind().name() + " " + p)).orElse(true);
            if (!inUse) {
                u.kind().release(u.settings());
                LOG.log(Level.DEBUG, "released what upstream " + u.id() + " kept (its idle connections)");
            }
        }
    }
}
