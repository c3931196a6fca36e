package io.loomgate.core.call;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tries of calls that were retried during one request, for its timeline: each attempt's
 * upstream, number, times and how it ended. Nothing is kept for a call that succeeded at once, so
 * most requests never allocate the list. Safe to add to from the request's subtasks.
 */
public final class Attempts {

    /**
     * One try of a call. Times are {@link System#nanoTime()} values.
     *
     * @param number  1 for the first try, 2 for the first retry, ...
     * @param outcome how it ended: success, failed or timeout (its own)
     * @param reason  why it failed; empty for a success
     */
    public record Attempt(UpstreamId upstream, int number, long startNanos, long endNanos, Outcome.Kind outcome, String reason) {
        public Attempt {
            Objects.requireNonNull(upstream, "upstream");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
        }
    }

    private final AtomicReference<ConcurrentLinkedQueue<Attempt>> list = new AtomicReference<>();

    public void add(Attempt attempt) {
        ConcurrentLinkedQueue<Attempt> q = list.get();
        if (q == null) {
            list.compareAndSet(null, new ConcurrentLinkedQueue<>());
            q = list.get();
        }
        q.add(attempt);
    }

    /** Every attempt recorded, in the order they were added. */
    public List<Attempt> all() {
        ConcurrentLinkedQueue<Attempt> q = list.get();
        return q == null ? List.of() : List.copyOf(q);
    }

    /** The attempts of calls to {@code upstream}. */
    public List<Attempt> of(UpstreamId upstream) {
        return all().stream().filter(a -> a.upstream().equals(upstream)).toList();
    }
}
