package io.loomgate.core.call;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tries of calls that were retried during one request, and every try to an upstream with
 * several endpoints, for its timeline: each attempt's upstream, number, endpoint, times and how it
 * ended. Nothing is kept for a call to a one-URL upstream that succeeded at once, so most requests
 * never allocate the list. Safe to add to from the request's subtasks.
 */
public final class Attempts {

    /**
     * One try of a call. Times are {@link System#nanoTime()} values.
     *
     * @param number  1 for the first try, 2 for the first retry, ...
     * @param outcome  how it ended: success, failed, timeout (its own) or cancelled
     * @param reason   why it failed; empty for a success
     * @param endpoint the endpoint it went to ({@code 10.0.0.5:8080}) when its upstream has several; else empty
     */
    public record Attempt(UpstreamId upstream, int number, long startNanos, long endNanos, Outcome.Kind outcome, String reason,
                          String endpoint) {
        public Attempt {
            Objects.requireNonNull(upstream, "upstream");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(endpoint, "endpoint");
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

    /** How many attempts of calls to {@code upstream} were recorded, without a copy: 0 for most requests. */
    public int count(UpstreamId upstream) {
        ConcurrentLinkedQueue<Attempt> q = list.get();
        int n = 0;
        if (q != null) {
            for (Attempt a : q) {
                if (a.upstream().equals(upstream)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The attempts of calls to {@code upstream}. */
    public List<Attempt> of(UpstreamId upstream) {
        return all().stream().filter(a -> a.upstream().equals(upstream)).toList();
    }
}
