package io.loomgate.upstream.balance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The endpoints of one upstream, and which of them takes the next call: by the upstream's
 * {@link Balance}, among those not ejected ({@link Outliers}) and, where it has a choice, not
 * already tried by the same request (so a retry or a hedge goes to another replica). When every
 * endpoint is ejected it balances over all of them (Envoy's panic mode) rather than fail every call.
 *
 * <pre>{@code
 * Fleet<Origin> fleet = new Fleet<>(origins, Origin::key, Balance.LEAST_REQUEST, Outliers.DEFAULT, System::nanoTime);
 * Fleet.Member<Origin> m = fleet.pickFor(triedByThisRequest, "");
 * m.started();
 * ... call m.value() ...
 * fleet.ended(m, failed);
 * }</pre>
 *
 * @param <T> what an endpoint is (an HTTP origin)
 */
public final class Fleet<T> {

    /** One endpoint and what is known of it now. */
    public static final class Member<T> {
        private final T value;
        private final String key;
        private final AtomicInteger outstanding = new AtomicInteger();
        private final AtomicInteger failures = new AtomicInteger();
        private final java.util.concurrent.atomic.LongAdder calls = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder failed = new java.util.concurrent.atomic.LongAdder();
        private volatile long ejectedUntil;
        private volatile boolean up = true;
        private volatile boolean ejected;
        private volatile long warmingSince;
        private int ejections;

        Member(T value, String key) {
            this.value = value;
            this.key = key;
        }

        public T value() { return value; }

        /** Its name: {@code 10.0.0.5:8080}. */
        public String key() { return key; }

        /** Calls it has now. */
        public int outstanding() { return outstanding.get(); }

        /** Tries it has taken, ended. */
        public long calls() { return calls.sum(); }

        /** Tries it failed itself (refused, reset, 5xx, too slow). */
        public long failures() {
            return failed.sum();
        }

        /** Its own failures in a row. */
        public int consecutiveFailures() {
            return failures.get();
        }

        /** How many times it has been ejected. */
        public synchronized int ejections() {
            return ejections;
        }

        public void started() {
            outstanding.incrementAndGet();
        }

        /** False while active health checks say it is down: it takes no calls. */
        public boolean up() {
            return up;
        }

        public void up(boolean up) {
            this.up = up;
        }
    }

    /** The members now, and their ring for {@link Balance#HASH}: replaced together, read together. */
    private record View<T>(List<Member<T>> members, HashRing ring) {
    }

    private final Function<T, String> key;
    private final Balance balance;
    private final Outliers outliers;
    private final LongSupplier clock;
    private final SlowStart slowStart;
    private final AtomicInteger next = new AtomicInteger();
    private volatile View<T> view;

    public Fleet(List<T> endpoints, Function<T, String> key, Balance balance, Outliers outliers, LongSupplier nanoClock) {
        this(endpoints, key, balance, outliers, nanoClock, SlowStart.NONE);
    }

    /** The same, an endpoint that joins or comes back taking its share over {@code slowStart}'s window. */
    public Fleet(List<T> endpoints, Function<T, String> key, Balance balance, Outliers outliers, LongSupplier nanoClock,
                 SlowStart slowStart) {
        this.slowStart = Objects.requireNonNull(slowStart, "slowStart");
        this.key = Objects.requireNonNull(key, "key");
        this.balance = Objects.requireNonNull(balance, "balance");
        this.outliers = Objects.requireNonNull(outliers, "outliers");
        this.clock = nanoClock;
        this.view = view(endpoints.stream().map(e -> new Member<>(e, key.apply(e))).toList());
    }

    private View<T> view(List<Member<T>> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a fleet needs an endpoint");
        }
        return new View<>(List.copyOf(members), balance == Balance.HASH ? new HashRing(members.stream().map(Member::key).toList()) : null);
    }

    /** Its endpoints now. */
    public List<Member<T>> members() {
        return view.members();
    }

    /**
     * Makes {@code endpoints} the fleet (a host name resolved again): an endpoint it had keeps its
     * member, and with it its calls outstanding, failures and ejection; a new one starts afresh.
     * Calls already on a removed member end as usual. Returns the members removed.
     *
     * @throws IllegalArgumentException when {@code endpoints} is empty
     */
    public synchronized List<Member<T>> replace(List<T> endpoints) {
        Map<String, Member<T>> had = new LinkedHashMap<>();
        view.members().forEach(m -> had.put(m.key, m));
        Map<String, Member<T>> now = new LinkedHashMap<>();
        for (T e : endpoints) {
            String k = key.apply(e);
            now.putIfAbsent(k, had.containsKey(k) ? had.get(k) : returned(new Member<>(e, k)));
        }
        this.view = view(List.copyOf(now.values()));
        had.keySet().removeAll(now.keySet());
        return List.copyOf(had.values());
    }

    /** True when every endpoint is ejected or down by its health checks: calls go to all of them (panic). */
    public boolean allOut() {
        return members().stream().noneMatch(m -> m.up() && !ejected(m));
    }

    /** True when {@code m} is ejected now. */
    public boolean ejected(Member<T> m) {
        if (m.ejected && clock.getAsLong() - m.ejectedUntil >= 0) {
            m.ejected = false;   // its time is over: it takes calls again, warming up
            returned(m);
        }
        return m.ejected;
    }

    /**
     * The endpoint for the next call.
     *
     * @param avoid   the keys of endpoints this request already used for this upstream: others first
     * @param hashKey for {@link Balance#HASH}, the request's key; ignored otherwise
     */
    public Member<T> pick(Set<String> avoid, String hashKey) {
        View<T> v = view;
        List<Member<T>> members = v.members();
        if (members.size() == 1) {
            return members.getFirst();
        }
        List<Integer> usable = usable(members, avoid);
        return switch (balance) {
            case ROUND_ROBIN -> roundRobin(members, usable);
            case LEAST_REQUEST -> leastOfTwo(members, usable);
            case HASH -> members.get(v.ring().owner(hashKey, usable::contains));
        };
    }

    /** {@link #pick}, added to the request's {@code tried} in one step: a hedge's two copies choose at once. */
    public Member<T> pickFor(Set<String> tried, String hashKey) {
        synchronized (tried) {
            Member<T> m = pick(tried, hashKey);
            tried.add(m.key);
            return m;
        }
    }

    /** Healthy and not yet used by the request; else healthy; else every one (panic). */
    private List<Integer> usable(List<Member<T>> members, Set<String> avoid) {
        List<Integer> healthy = new ArrayList<>();
        List<Integer> fresh = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Member<T> m = members.get(i);
            if (!ejected(m) && m.up()) {
                healthy.add(i);
                if (!avoid.contains(m.key)) {
                    fresh.add(i);
                }
            }
        }
        if (!fresh.isEmpty()) {
            return fresh;
        }
        if (!healthy.isEmpty()) {
            return healthy;
        }
        return java.util.stream.IntStream.range(0, members.size()).boxed().toList();
    }

    private Member<T> leastOfTwo(List<Member<T>> members, List<Integer> usable) {
        if (usable.size() == 1) {
            return members.get(usable.getFirst());
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int a = random.nextInt(usable.size());
        int b = random.nextInt(usable.size() - 1);
        if (b >= a) {
            b++;
        }
        Member<T> x = members.get(usable.get(a));
        Member<T> y = members.get(usable.get(b));
        long now = clock.getAsLong();
        return slowStart.load(y.outstanding(), y.warmingSince, now) < slowStart.load(x.outstanding(), x.warmingSince, now) ? y : x;
    }

    /** The next in turn, skipped with the probability its slow start leaves out (at most once round). */
    private Member<T> roundRobin(List<Member<T>> members, List<Integer> usable) {
        Member<T> m;
        int tries = 0;
        do {
            m = members.get(usable.get(Math.floorMod(next.getAndIncrement(), usable.size())));
        } while (++tries < usable.size() && !slowStart.admits(m.warmingSince, clock.getAsLong()));
        return m;
    }

    /** {@code m} joins or comes back now (a new address, its ejection over, its health checks passing): it warms up. */
    public Member<T> returned(Member<T> m) {
        m.warmingSince = slowStart.window().isZero() ? 0 : Math.max(1, clock.getAsLong());
        return m;
    }

    /**
     * A call on {@code m} ended: {@code failed} when the endpoint itself failed it (refused, reset,
     * a 5xx, too slow), not when the call was cancelled. Enough failures in a row eject it.
     */
    public void ended(Member<T> m, boolean failed) {
        m.outstanding.decrementAndGet();
        m.calls.increment();
        if (failed) {
            m.failed.increment();
        }
        if (!failed) {
            m.failures.set(0);
            return;
        }
        if (m.failures.incrementAndGet() >= outliers.consecutiveFailures() && view.members().size() > 1) {
            eject(m);
        }
    }

    /** A call on {@code m} ended without telling anything of the endpoint (it was cancelled). */
    public void released(Member<T> m) {
        m.outstanding.decrementAndGet();
        m.calls.increment();
    }

    /** Ends {@code m}'s ejection now (a health check it passed); true when it was ejected. */
    public synchronized boolean uneject(Member<T> m) {
        if (!ejected(m)) {
            return false;
        }
        m.ejected = false;
        m.failures.set(0);
        returned(m);
        return true;
    }

    private synchronized void eject(Member<T> m) {
        List<Member<T>> members = view.members();
        if (ejected(m) || !members.contains(m)) {
            return;
        }
        long ejectedNow = members.stream().filter(this::ejected).count();
        long allowed = Math.max(1, members.size() * outliers.maxEjectedPercent() / 100);
        if (ejectedNow >= allowed) {
            return;
        }
        m.ejections++;
        long nanos = Math.min(outliers.baseEjection().toNanos() * m.ejections, Outliers.MAX_EJECTION.toNanos());
        m.ejectedUntil = clock.getAsLong() + nanos;
        m.ejected = true;
        m.failures.set(0);
    }
}
