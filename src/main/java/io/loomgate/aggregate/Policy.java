package io.loomgate.aggregate;

import io.loomgate.service.ServiceName;
import io.loomgate.service.ServiceValue;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * How the parts of a fan-out are merged into one answer. Structured policies run under a
 * {@code StructuredTaskScope} that stops waiting as {@link #stopWhen()} says; the CompletableFuture
 * baseline runs the same calls without structure, for comparison. Merging is a pure function of
 * what the fan-out saw, so each policy is tested without threads or HTTP.
 *
 * <pre>{@code
 * Policy.all();                                              // every part must succeed
 * Policy.any();                                              // the first success wins
 * Policy.withFallback(Map.of(DB, new ServiceValue.Text("cached")));
 * }</pre>
 */
public sealed interface Policy permits AllPolicy, AnyPolicy, FallbackPolicy, CompletableFuturePolicy {

    /** The name the response reports: {@code all}, {@code any}, {@code fallback}, {@code single}, ... */
    String name();

    /** When the fan-out stops waiting for the rest. */
    StopWhen stopWhen();

    /** Turns what the fan-out saw into outcomes and an overall status. */
    Aggregation merge(FanOutResult result);

    /** One service; its failure or timeout is the answer's. */
    static Policy single() {
        return new AllPolicy("single");
    }

    /** Every part must succeed; the first failure cancels the rest at once. */
    static Policy all() {
        return new AllPolicy("all");
    }

    /** The first success wins and the others are cancelled; if all fail, every failure is reported. */
    static Policy any() {
        return new AnyPolicy();
    }

    /** A part that fails or is late is replaced by its fallback value; the answer is then degraded. */
    static Policy withFallback(Map<ServiceName, ServiceValue> fallbacks) {
        return new FallbackPolicy(fallbacks);
    }

    /**
     * The same calls with {@code CompletableFuture.supplyAsync} on {@code executor}: fail-fast, but a
     * part still running when the answer goes out is orphaned, because nothing can stop it.
     *
     * @param executorName how the response names the executor, e.g. {@code common-pool}
     */
    static Policy completableFuture(Executor executor, String executorName) {
        return new CompletableFuturePolicy(executor, executorName);
    }
}
