package io.loomgate.observe.timeline;

import io.loomgate.core.call.Status;
import io.loomgate.observe.event.Answer;
import io.loomgate.observe.event.Events;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

/**
 * The timelines of the last fan-out requests, bounded in memory whatever the load: the last
 * {@value #RECENT} of all, the last {@value #FAILED} that were not {@code ok}, and the
 * {@value #SLOWEST} slowest of the last {@value #SLOW_WINDOW_MINUTES} minutes, so the requests worth
 * a look outlive the flood of ordinary ones. Recording an ordinary request is an atomic increment and
 * an array store, with no lock; only a request slower than the slowest set's fastest takes a lock. An
 * answer is kept as it came and made into its timeline only when someone reads it: most are never read.
 *
 * <pre>{@code
 * RecentRequests recent = new RecentRequests();
 * recent.answered(answer);           // or recent.record(timeline)
 * recent.find("9c41e2-7");            // Optional<Timeline>
 * }</pre>
 */
public final class RecentRequests implements Events {

    public static final int RECENT = 256;
    public static final int FAILED = 64;
    public static final int SLOWEST = 32;
    public static final int SLOW_WINDOW_MINUTES = 5;
    private static final long SLOW_WINDOW_MS = SLOW_WINDOW_MINUTES * 60_000L;

    private final Ring recent = new Ring(RECENT);
    private final Ring failed = new Ring(FAILED);
    private final Entry[] slowest = new Entry[SLOWEST];
    private final LongSupplier clockMs;
    /** A request must be slower than this to enter the slowest set; 0 while it has room. */
    private volatile double slowThreshold;
    /** When the oldest member of the slowest set leaves it, in clock milliseconds. */
    private volatile long nextExpiryMs = Long.MAX_VALUE;

    public RecentRequests() {
        this(System::currentTimeMillis);
    }

    /** @param clockMs the wall clock, in milliseconds since the epoch (tests pass their own) */
    RecentRequests(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    /** Keeps the answer's timeline. */
    @Override
    public void answered(Answer answer) {
        record(new Entry(answer, clockMs.getAsLong()));
    }

    public void record(Timeline t) {
        record(new Entry(t));
    }

    private void record(Entry e) {
        recent.add(e);
        if (e.failed) {
            failed.add(e);
        }
        if (e.answeredMs > slowThreshold || clockMs.getAsLong() >= nextExpiryMs) {
            offerSlow(e);
        }
    }

    /** The request's timeline, while any of the three sets still holds it. */
    public Optional<Timeline> find(String id) {
        for (Ring ring : List.of(recent, failed)) {
            for (Entry e : ring.newestFirst()) {
                if (e.id.equals(id)) {
                    return Optional.of(e.timeline());
                }
            }
        }
        return slowest().stream().filter(t -> t.id().equals(id)).findFirst();
    }

    /** The last requests, newest first. */
    public List<Timeline> recent() {
        return timelines(recent.newestFirst());
    }

    /** The last requests that were not {@code ok}, newest first. */
    public List<Timeline> failed() {
        return timelines(failed.newestFirst());
    }

    /** The slowest requests of the last {@value #SLOW_WINDOW_MINUTES} minutes, slowest first. */
    public synchronized List<Timeline> slowest() {
        expire(clockMs.getAsLong());
        List<Timeline> result = new ArrayList<>(SLOWEST);
        for (Entry e : slowest) {
            if (e != null) {
                result.add(e.timeline());
            }
        }
        result.sort(Comparator.comparingDouble(Timeline::answeredMs).reversed());
        return result;
    }

    /** How many timelines the three sets hold now, counting one held twice twice; never above their sum. */
    public int held() {
        int slow = 0;
        synchronized (this) {
            expire(clockMs.getAsLong());
            for (Entry e : slowest) {
                slow += e == null ? 0 : 1;
            }
        }
        return recent.newestFirst().size() + failed.newestFirst().size() + slow;
    }

    private synchronized void offerSlow(Entry t) {
        expire(clockMs.getAsLong());
        int slot = -1;
        for (int i = 0; i < SLOWEST; i++) {
            if (slowest[i] == null) {
                slot = i;
                break;
            }
            if (slot < 0 || slowest[i].answeredMs < slowest[slot].answeredMs) {
                slot = i;
            }
        }
        if (slowest[slot] == null || slowest[slot].answeredMs < t.answeredMs) {
            slowest[slot] = t;
        }
        refresh();
    }

    /** Drops members older than the window. Caller holds the lock. */
    private void expire(long nowMs) {
        if (nowMs < nextExpiryMs) {
            return;
        }
        for (int i = 0; i < SLOWEST; i++) {
            if (slowest[i] != null && nowMs - slowest[i].arrivedAtMs >= SLOW_WINDOW_MS) {
                slowest[i] = null;
            }
        }
        refresh();
    }

    /** Recomputes the entry threshold and the next expiry. Caller holds the lock. */
    private void refresh() {
        double threshold = Double.MAX_VALUE;
        long oldest = Long.MAX_VALUE;
        for (Entry e : slowest) {
            if (e == null) {
                threshold = 0;
            } else {
                threshold = Math.min(threshold, e.answeredMs);
                oldest = Math.min(oldest, e.arrivedAtMs);
            }
        }
        slowThreshold = threshold;
        nextExpiryMs = oldest == Long.MAX_VALUE ? Long.MAX_VALUE : oldest + SLOW_WINDOW_MS;
    }

    private static List<Timeline> timelines(List<Entry> entries) {
        List<Timeline> result = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            result.add(e.timeline());
        }
        return result;
    }

    /**
     * A request kept: its answer and when it was ready, made into its {@link Timeline} the first time
     * it is read (then the answer is let go), or a timeline given ready-made.
     */
    private static final class Entry {
        final String id;
        final boolean failed;
        final double answeredMs;
        final long arrivedAtMs;
        private final long answeredAtMs;
        private Answer answer;
        private Timeline timeline;

        Entry(Answer answer, long answeredAtMs) {
            this.id = answer.requestId();
            this.failed = answer.status() != Status.OK;
            this.answeredMs = Timeline.answeredAfter(answer);
            this.arrivedAtMs = Timeline.arrivalOf(answer, answeredAtMs);
            this.answeredAtMs = answeredAtMs;
            this.answer = answer;
        }

        Entry(Timeline timeline) {
            this.id = timeline.id();
            this.failed = timeline.failed();
            this.answeredMs = timeline.answeredMs();
            this.arrivedAtMs = timeline.arrivedAtMs();
            this.answeredAtMs = 0;
            this.timeline = timeline;
        }

        synchronized Timeline timeline() {
            if (timeline == null) {
                timeline = Timeline.of(answer, answeredAtMs);
                answer = null;
            }
            return timeline;
        }
    }

    /** A fixed ring of the last {@code size} entries: one atomic increment and one store per add. */
    private static final class Ring {
        private final AtomicReferenceArray<Entry> slots;
        private final AtomicLong next = new AtomicLong();

        Ring(int size) {
            slots = new AtomicReferenceArray<>(size);
        }

        void add(Entry t) {
            slots.set((int) (next.getAndIncrement() % slots.length()), t);
        }

        List<Entry> newestFirst() {
            long end = next.get();
            int n = (int) Math.min(end, slots.length());
            List<Entry> result = new ArrayList<>(n);
            for (long i = end - 1; i >= end - n; i--) {
                Entry t = slots.get((int) (i % slots.length()));
                if (t != null) {
                    result.add(t);
                }
            }
            return result;
        }
    }
}
