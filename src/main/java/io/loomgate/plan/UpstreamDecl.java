package io.loomgate.plan;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.upstream.BreakerSettings;
import io.loomgate.upstream.Faults;
import io.loomgate.upstream.RetrySettings;
import io.loomgate.upstream.UpstreamKind;
import java.util.Objects;
import java.util.Optional;

/**
 * One declared upstream.
 *
 * @param id       its id, unique in the file
 * @param kind     its kind, the module that read it and builds it
 * @param settings the kind's own fields, as it read them
 * @param faults   the latency and failure rate injected into its calls (zero unless declared)
 * @param breaker  its circuit breaker, if it has one
 * @param retry    how its calls are retried, and the budget its retries and hedges share
 */
public record UpstreamDecl(UpstreamId id, UpstreamKind kind, UpstreamKind.Settings settings, Faults faults,
                           Optional<BreakerSettings> breaker, RetrySettings retry) {

    public UpstreamDecl {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(retry, "retry");
    }

    public UpstreamDecl withFaults(Faults replaced) {
        return new UpstreamDecl(id, kind, settings, replaced, breaker, retry);
    }
}
