package io.loomgate.api;

import static io.loomgate.service.ServiceName.CACHE;
import static io.loomgate.service.ServiceName.CACHE_1;
import static io.loomgate.service.ServiceName.CACHE_2;
import static io.loomgate.service.ServiceName.COMPUTE;
import static io.loomgate.service.ServiceName.DATABASE;
import static io.loomgate.service.ServiceName.DB;
import static io.loomgate.service.ServiceName.FILE;
import static io.loomgate.service.ServiceName.FILE_FLAKY;

import io.loomgate.aggregate.Policy;
import io.loomgate.config.ThreadMode;
import io.loomgate.routing.Route;
import io.loomgate.service.ServiceValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.LongAdder;

/** The route table of a running loomgate: every endpoint, in the order the README lists them. */
public final class Endpoints {

    private Endpoints() {
    }

    public static List<Route> all(Wiring w) {
        ThreadMode threads = w.config().server().threads();
        LongAdder virtualStarted = w.virtualStarted();
        // The fair baseline: the same kind of threads as the structured endpoints, without the structure.
        Executor virtualPerTask = task -> {
            virtualStarted.increment();
            Thread.ofVirtual().name("aggregate-cf-task").start(task);
        };
        List<AggregateEndpoint.Spec> specs = List.of(
                new AggregateEndpoint.Spec("/block", Policy.single(), List.of(DB), null),
                new AggregateEndpoint.Spec("/file", Policy.single(), List.of(FILE), null),
                new AggregateEndpoint.Spec("/compute", Policy.single(), List.of(COMPUTE), null),
                new AggregateEndpoint.Spec("/cache", Policy.single(), List.of(CACHE), null),
                new AggregateEndpoint.Spec("/aggregate", Policy.all(), List.of(DB, FILE), null),
                new AggregateEndpoint.Spec("/first-success", Policy.any(), List.of(CACHE_1, CACHE_2, DATABASE), null),
                new AggregateEndpoint.Spec("/aggregate-with-fallback", Policy.withFallback(Map.of(
                        DB, new ServiceValue.Text("DB fallback: cached result"),
                        FILE_FLAKY, new ServiceValue.Text("file fallback: no data"))), List.of(DB, FILE_FLAKY), null),
                new AggregateEndpoint.Spec("/multi-aggregate", Policy.all(), List.of(DB, FILE, COMPUTE, CACHE), null),
                // The seed's baseline, on purpose: supplyAsync without an executor, i.e. the common pool.
                new AggregateEndpoint.Spec("/aggregate-old",
                        Policy.completableFuture(ForkJoinPool.commonPool(), "common-pool"), List.of(DB, FILE), "common-pool"),
                new AggregateEndpoint.Spec("/aggregate-cf",
                        Policy.completableFuture(virtualPerTask, "virtual-threads"), List.of(DB, FILE), "virtual-threads"));

        List<Route> routes = new ArrayList<>();
        routes.add(Route.operator("/health", new HealthEndpoint(w.lifecycle(), threads)));
        routes.add(Route.operator("/metrics", new MetricsEndpoint(w.metrics())));
        for (AggregateEndpoint.Spec spec : specs) {
            routes.add(Route.get(spec.path(), new AggregateEndpoint(spec, w.services(), w.aggregator(), threads)));
        }
        if (w.config().observability().debugEndpoints()) {
            routes.add(Route.operator("/debug/threads", new DebugThreadsEndpoint()));
        }
        return routes;
    }
}
