package io.loomgate.api;

import io.loomgate.aggregate.Aggregation;
import io.loomgate.aggregate.Aggregator;
import io.loomgate.aggregate.Policy;
import io.loomgate.aggregate.RequestContext;
import io.loomgate.config.ServiceOptions;
import io.loomgate.config.ThreadMode;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Handler;
import io.loomgate.service.CallPlan;
import io.loomgate.service.ServiceName;
import io.loomgate.service.Services;
import java.util.List;

/**
 * One fan-out endpoint: its services, its policy, and the per-request knobs. The deadline counts
 * from the moment the request's first byte arrived.
 */
final class AggregateEndpoint implements Handler {

    /**
     * @param path     the route
     * @param policy   how the parts are merged
     * @param services the parts, in response order
     * @param executor for the CompletableFuture baselines, how the response names their executor
     */
    record Spec(String path, Policy policy, List<ServiceName> services, String executor) {
        Spec {
            services = List.copyOf(services);
        }

        boolean readsN() {
            return services.contains(ServiceName.COMPUTE);
        }
    }

    private final Spec spec;
    private final Services services;
    private final Aggregator aggregator;
    private final ServiceOptions options;
    private final ThreadMode threads;

    AggregateEndpoint(Spec spec, Services services, Aggregator aggregator, ThreadMode threads) {
        this.spec = spec;
        this.services = services;
        this.aggregator = aggregator;
        this.options = services.options();
        this.threads = threads;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        Knobs knobs = Knobs.parse(request.query(), options, spec.readsN());
        List<CallPlan> plans = spec.services().stream()
                .map(s -> services.plan(s, knobs.delays(), knobs.failures(), knobs.n()))
                .toList();
        RequestContext ctx = new RequestContext(request.id(), spec.path(),
                request.arrivalNanos() + knobs.timeout().toNanos(), knobs.timeout());
        Aggregation aggregation = ScopedValue.where(RequestContext.CURRENT, ctx)
                .call(() -> aggregator.run(spec.policy(), plans));
        return AggregationJson.response(spec.path(), aggregation, knobs.timeout(), threads, request.id(), spec.executor());
    }
}
