package io.loomgate.upstream;

import io.loomgate.call.ServiceId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The registry: every upstream by id, each wrapped as {@code Recorded(FaultInjected(upstream))}, so
 * fault injection and recording work the same on every kind of upstream. Immutable once built.
 *
 * <pre>{@code
 * Upstreams upstreams = Upstreams.builder(OptionalLong.empty())
 *         .add(ServiceId.of("db"), () -> Value.text("row"), new Faults(Duration.ofMillis(300), 0))
 *         .build();
 * Value v = upstreams.get(ServiceId.of("db")).call();   // inside a RequestContext
 * }</pre>
 */
public final class Upstreams {

    private final Map<ServiceId, Upstream> byId;
    private final CallLog log;

    private Upstreams(Map<ServiceId, Upstream> byId, CallLog log) {
        this.byId = byId;
        this.log = log;
    }

    public static Builder builder(OptionalLong seed) {
        return new Builder(seed);
    }

    /**
     * The decorated upstream of {@code id}.
     *
     * @throws NoSuchElementException when no upstream has that id
     */
    public Upstream get(ServiceId id) {
        Upstream u = byId.get(id);
        if (u == null) {
            throw new NoSuchElementException("no upstream '" + id + "'; known: " + ids());
        }
        return u;
    }

    /** Every id, in the order the upstreams were added. */
    public List<ServiceId> ids() {
        return List.copyOf(byId.keySet());
    }

    /** Every call, as the calls saw it. */
    public CallLog calls() {
        return log;
    }

    /** Collects upstreams; {@link #build()} wraps them. */
    public static final class Builder {
        private final FailureDice dice;
        private final Map<ServiceId, Upstream> raw = new LinkedHashMap<>();
        private final Map<ServiceId, Faults> faults = new LinkedHashMap<>();

        private Builder(OptionalLong seed) {
            this.dice = new FailureDice(seed);
        }

        public Builder add(ServiceId id, Upstream upstream, Faults faults) {
            if (raw.putIfAbsent(id, upstream) != null) {
                throw new IllegalArgumentException("upstream '" + id + "' is added twice");
            }
            this.faults.put(id, faults);
            return this;
        }

        public Upstreams build() {
            Map<ServiceId, LongAdder> counters = new LinkedHashMap<>();
            raw.keySet().forEach(id -> counters.put(id, new LongAdder()));
            CallLog log = new CallLog(counters);
            Map<ServiceId, Upstream> decorated = new LinkedHashMap<>();
            raw.forEach((id, u) -> decorated.put(id, new Recorded(id, new FaultInjected(id, u, faults.get(id), dice), log)));
            return new Upstreams(Collections.unmodifiableMap(decorated), log);
        }
    }

    @Override
    public String toString() {
        return "Upstreams" + byId.keySet();
    }
}
