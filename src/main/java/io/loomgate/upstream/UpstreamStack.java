package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.port.RetryBudget;
import io.loomgate.observe.event.Events;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The layers every upstream is wrapped in, declared once, innermost first, as Finagle composes a
 * client's stack:
 * <ol>
 *   <li>{@code faults}: the declared latency and failure rate, and {@code ?delay=} and
 *       {@code ?fail=}, as if the upstream itself were slow or failing ({@link FaultInjected});</li>
 *   <li>{@code breaker}: counts how tries end and fails them at once while open, for upstreams that
 *       declare one ({@link Breaking});</li>
 *   <li>{@code retry}: retries what is safe to retry, each try through the breaker, spending the
 *       upstream's {@link RetryBudget}, and keeps the tries for the timeline ({@link Retrying});</li>
 *   <li>{@code record}: the call log sees the call once, however many tries it took ({@link Recorded}).</li>
 * </ol>
 * A retry therefore goes through the breaker (a failing upstream opens it, and an open one is not
 * retried), and an injected fault looks to both like the upstream's own.
 */
final class UpstreamStack {

    /**
     * What one upstream's layers are made of.
     *
     * @param breaker its breaker, when it declares one
     * @param events  where its calls are told: the call log, and whoever else listens
     * @param replicated the upstream has several endpoints ({@link Upstream#replicated})
     */
    record Parts(UpstreamId id, Faults faults, FailureDice dice, Optional<Breaker> breaker, RetrySettings retry,
                 RetryBudget budget, RetryStats retries, Events events, boolean replicated) {
    }

    /** One layer: its name, and how it wraps what is below it. */
    record Layer(String name, BiFunction<Layered, Parts, Layered> around) {
    }

    /** The layers, innermost first. */
    static final List<Layer> LAYERS = List.of(
            new Layer("faults", (inner, p) -> new FaultInjected(p.id(), inner, p.faults(), p.dice())),
            new Layer("breaker", (inner, p) -> p.breaker().<Layered>map(b -> new Breaking(b, inner)).orElse(inner)),
            new Layer("retry", (inner, p) -> new Retrying(p.id(), inner, p.retry(), p.budget(), p.retries(), p.replicated())),
            new Layer("record", (inner, p) -> new Recorded(p.id(), inner, p.events())));

    private UpstreamStack() {
    }

    /** {@code raw} inside every layer, the outermost returned. */
    static Layered around(Upstream raw, Parts parts) {
        Layered stacked = Layered.of(raw);
        for (Layer layer : LAYERS) {
            stacked = layer.around().apply(stacked, parts);
        }
        return stacked;
    }
}
