package io.loomgate.upstream;

import io.loomgate.core.port.Upstream;
import io.loomgate.core.port.Forwarder;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.core.port.Calls;
import io.loomgate.core.port.RetryBudget;
import io.loomgate.observe.event.Events;
import io.loomgate.observe.MetricSet;
import io.loomgate.upstream.cache.CacheMetrics;
import io.loomgate.upstream.cache.CachedCalls;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The registry: every upstream by id, each inside the layers of its {@link UpstreamStack} (faults,
 * breaker, retry, record), so they work the same on every kind of upstream, for calls and forwarded
 * requests alike. Each upstream has a {@link RetryBudget} its retries and the hedges sent to it
 * share. Immutable once built.
 *
 * <pre>{@code
 * Upstreams upstreams = Upstreams.builder(OptionalLong.empty())
 *         .add(UpstreamId.of("db"), () -> Value.text("row"), new Faults(Duration.ofMillis(300), 0))
 *         .build();
 * Value v = upstreams.get(UpstreamId.of("db")).call();   // inside a RequestContext
 * }</pre>
 */
public final class Upstreams implements Calls {

    private final Map<UpstreamId, Layered> byId;
    private final Map<UpstreamId, Upstream> raw;
    private final Map<UpstreamId, Boolean> forwards;
    private final Map<UpstreamId, Breaker> breakers;
    private final Map<UpstreamId, RetryBudget> budgets;
    private final Map<UpstreamId, RetryStats> retries;
    private final CallLog log;

    private Upstreams(Map<UpstreamId, Layered> byId, Map<UpstreamId, Upstream> raw, Map<UpstreamId, Boolean> forwards,
                      Map<UpstreamId, Breaker> breakers, Map<UpstreamId, RetryBudget> budgets, Map<UpstreamId, RetryStats> retries,
                      CallLog log) {
        this.byId = byId;
        this.raw = raw;
        this.forwards = forwards;
        this.breakers = breakers;
        this.budgets = budgets;
        this.retries = retries;
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
    public Upstream get(UpstreamId id) {
        return stacked(id);
    }

    @Override
    public Value call(UpstreamId id) throws UpstreamFailure, InterruptedException {
        return stacked(id).call();
    }

    @Override
    public Value call(UpstreamId id, Call call) throws UpstreamFailure, InterruptedException {
        return stacked(id).call(call);
    }

    /**
     * The decorated forwarding port of {@code id}, for a proxy route.
     *
     * @throws NoSuchElementException   when no upstream has that id
     * @throws IllegalArgumentException when its kind cannot forward (the route file refuses that first)
     */
    public Forwarder forwarder(UpstreamId id) {
        Layered u = stacked(id);
        if (!forwards.get(id)) {
            throw new IllegalArgumentException("upstream '" + id + "' cannot forward a request");
        }
        return u;
    }

    private Layered stacked(UpstreamId id) {
        Layered u = byId.get(id);
        if (u == null) {
            throw new NoSuchElementException("no upstream '" + id + "'; known: " + ids());
        }
        return u;
    }

    /** The endpoints of {@code id} and their state ({@link Operated#endpoints}); none for an unknown id. */
    public List<EndpointState> endpoints(UpstreamId id) {
        Upstream u = raw.get(id);
        return u == null ? List.of() : Operated.of(u).endpoints();
    }

    /** The caches of {@code id} ({@link Operated#caches}): its own, then its calls'; none for an unknown id or one without. */
    public List<CachedCalls> caches(UpstreamId id) {
        Upstream u = raw.get(id);
        return u == null ? List.of() : Operated.of(u).caches();
    }

    /** Tells each upstream what the composed calls to it in its plan ask of it ({@link Operated#callsDeclared}). */
    public void callsDeclared(Map<UpstreamId, List<io.loomgate.core.port.Extensions>> calls) {
        raw.forEach((id, u) -> Operated.of(u).callsDeclared(calls.getOrDefault(id, List.of())));
    }

    /** The metric sets the upstreams own: their breakers', endpoints', caches' and retries', in the upstreams' order. */
    public List<MetricSet> metricSets() {
        Map<UpstreamId, List<EndpointState>> endpoints = new LinkedHashMap<>();
        Map<UpstreamId, CachedCalls.Stats> caches = new LinkedHashMap<>();
        for (UpstreamId id : ids()) {
            List<EndpointState> of = endpoints(id);
            if (!of.isEmpty()) {
                endpoints.put(id, of);
            }
            List<CachedCalls> held = caches(id);
            if (!held.isEmpty()) {
                caches.put(id, CacheMetrics.total(held));
            }
        }
        return List.of(new BreakerMetrics(breakers()), new EndpointMetrics(endpoints), new CacheMetrics(caches), RetryMetrics.of(retries()));
    }

    /** Starts what each upstream runs on its own (health checks); idempotent, so a kept upstream is not started twice. */
    public void activate() {
        raw.values().forEach(u -> Operated.of(u).activate());
    }

    /** Stops what {@code id} runs on its own, once no plan serves it. */
    public void deactivate(UpstreamId id) {
        Upstream u = raw.get(id);
        if (u != null) {
            Operated.of(u).deactivate();
        }
    }

    /** Stops what every upstream runs on its own: at shutdown. */
    public void deactivateAll() {
        raw.values().forEach(u -> Operated.of(u).deactivate());
    }

    /** Every id, in the order the upstreams were added. */
    public List<UpstreamId> ids() {
        return List.copyOf(byId.keySet());
    }

    /** Every call, as the calls saw it. */
    public CallLog calls() {
        return log;
    }

    /** The budget the retries of {@code id}, and the hedge backups sent to it, draw on. */
    @Override
    public RetryBudget budget(UpstreamId id) {
        RetryBudget b = budgets.get(id);
        if (b == null) {
            throw new NoSuchElementException("no upstream '" + id + "'; known: " + ids());
        }
        return b;
    }

    /** Each upstream's retries, sent and refused by its budget, in the order they were added. */
    public Map<UpstreamId, RetryStats> retries() {
        return retries;
    }

    /** The state of each upstream that has a circuit breaker, in the order they were added. */
    public Map<UpstreamId, Breaker.Snapshot> breakers() {
        Map<UpstreamId, Breaker.Snapshot> result = new LinkedHashMap<>();
        breakers.forEach((id, b) -> result.put(id, b.snapshot()));
        return result;
    }

    /** Collects upstreams; {@link #build()} wraps them. */
    public static final class Builder {
        private final FailureDice dice;
        private final Map<UpstreamId, Upstream> raw = new LinkedHashMap<>();
        private final Map<UpstreamId, Faults> faults = new LinkedHashMap<>();
        private final Map<UpstreamId, BreakerSettings> breakerSettings = new LinkedHashMap<>();
        private final Map<UpstreamId, RetrySettings> retrySettings = new LinkedHashMap<>();
        private LongSupplier nanoClock = System::nanoTime;
        private Events events = Events.NONE;
        private Upstreams previous;
        private final java.util.Set<UpstreamId> kept = new java.util.HashSet<>();

        private Builder(OptionalLong seed) {
            this.dice = new FailureDice(seed);
        }

        public Builder add(UpstreamId id, Upstream upstream, Faults faults) {
            if (raw.putIfAbsent(id, upstream) != null) {
                throw new IllegalArgumentException("upstream '" + id + "' is added twice");
            }
            this.faults.put(id, faults);
            return this;
        }

        /** Adds an upstream behind a circuit breaker. */
        public Builder add(UpstreamId id, Upstream upstream, Faults faults, BreakerSettings breaker) {
            add(id, upstream, faults);
            breakerSettings.put(id, breaker);
            return this;
        }

        /** Retries {@code id}'s calls as {@code settings} say, and sizes its budget. */
        public Builder retry(UpstreamId id, RetrySettings settings) {
            if (!raw.containsKey(id)) {
                throw new IllegalArgumentException("upstream '" + id + "' is not added");
            }
            retrySettings.put(id, settings);
            return this;
        }

        /** The clock the breakers' cool-downs run on ({@link System#nanoTime()} unless a test sets one). */
        public Builder clock(LongSupplier nanoClock) {
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * Takes over {@code previous}'s call log, and for each of {@code unchanged} (added here with
         * the same settings as there) its whole stack: its breaker, its retry budget and counts, and
         * what its kind holds (a connection pool). A reload keeps an upstream's state this way.
         */
        public Builder carry(Upstreams previous, java.util.Collection<UpstreamId> unchanged) {
            this.previous = previous;
            unchanged.stream().filter(previous.byId::containsKey).forEach(kept::add);
            return this;
        }

        /** Also tells {@code events} of every call, beside the call log. */
        public Builder events(Events events) {
            this.events = events;
            return this;
        }

        public Upstreams build() {
            Map<UpstreamId, LongAdder> counters = new LinkedHashMap<>();
            raw.keySet().forEach(id -> counters.put(id, new LongAdder()));
            CallLog log = previous == null ? new CallLog(counters) : previous.log;
            raw.keySet().forEach(log::track);
            Events told = Events.all(log, events);
            Map<UpstreamId, Layered> decorated = new LinkedHashMap<>();
            Map<UpstreamId, Upstream> bare = new LinkedHashMap<>();
            Map<UpstreamId, Boolean> forwards = new LinkedHashMap<>();
            Map<UpstreamId, Breaker> breakers = new LinkedHashMap<>();
            Map<UpstreamId, RetryBudget> budgets = new LinkedHashMap<>();
            Map<UpstreamId, RetryStats> retries = new LinkedHashMap<>();
            raw.forEach((id, u) -> {
                if (kept.contains(id)) {
                    decorated.put(id, previous.byId.get(id));
                    bare.put(id, previous.raw.get(id));
                    forwards.put(id, previous.forwards.get(id));
                    Optional.ofNullable(previous.breakers.get(id)).ifPresent(b -> breakers.put(id, b));
                    budgets.put(id, previous.budgets.get(id));
                    retries.put(id, previous.retries.get(id));
                    return;
                }
                Optional<Breaker> breaker = Optional.ofNullable(breakerSettings.get(id)).map(b -> new Breaker(id, b, nanoClock));
                breaker.ifPresent(b -> breakers.put(id, b));
                RetrySettings r = retrySettings.getOrDefault(id, RetrySettings.NONE);
                RetryBudget budget = new RetryBudget(r.budget(), r.minPerSecond(), nanoClock);
                RetryStats stats = new RetryStats();
                budgets.put(id, budget);
                retries.put(id, stats);
                decorated.put(id, UpstreamStack.around(u, new UpstreamStack.Parts(id, faults.get(id), dice, breaker, r,
                        budget, stats, told, Operated.of(u).replicated())));
                forwards.put(id, u instanceof Forwarder);
                bare.put(id, u);
            });
            return new Upstreams(Collections.unmodifiableMap(decorated), Collections.unmodifiableMap(bare), Map.copyOf(forwards), Collections.unmodifiableMap(breakers),
                    Collections.unmodifiableMap(budgets), Collections.unmodifiableMap(retries), log);
        }
    }

    @Override
    public String toString() {
        return "Upstreams" + byId.keySet();
    }
}
