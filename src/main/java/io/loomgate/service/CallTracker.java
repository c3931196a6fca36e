package io.loomgate.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Records every service call: when it started, when it ended, and how. This is how loomgate (and
 * its tests) see cancellation happen rather than infer it: an interrupted call ends early, with
 * {@link Ending#INTERRUPTED}, at the moment it stopped. Keeps calls in flight per service and the
 * last {@value #KEPT} finished calls.
 */
public final class CallTracker {

    /** How a call ended, from the service's own point of view. */
    public enum Ending { RETURNED, FAILED, INTERRUPTED }

    /** One finished call. Times are {@link System#nanoTime()} values. */
    public record CallRecord(ServiceName service, String requestId, long startNanos, long endNanos, Ending ending) {
        public Duration duration() {
            return Duration.ofNanos(endNanos - startNanos);
        }
    }

    /** A call in progress; hand it back to {@link #end}. */
    public record Started(ServiceName service, String requestId, long startNanos) {
    }

    private static final int KEPT = 4096;

    private final AtomicIntegerArray inFlight = new AtomicIntegerArray(ServiceName.values().length);
    private final AtomicReferenceArray<CallRecord> recent = new AtomicReferenceArray<>(KEPT);
    private final AtomicLong written = new AtomicLong();

    public Started start(ServiceName service, String requestId) {
        inFlight.incrementAndGet(service.ordinal());
        return new Started(service, requestId, System.nanoTime());
    }

    public CallRecord end(Started call, Ending ending) {
        CallRecord record = new CallRecord(call.service(), call.requestId(), call.startNanos(), System.nanoTime(), ending);
        recent.set((int) (written.getAndIncrement() % KEPT), record);
        inFlight.decrementAndGet(call.service().ordinal());
        return record;
    }

    public int inFlight(ServiceName service) {
        return inFlight.get(service.ordinal());
    }

    /** Calls in flight across all services. */
    public int inFlight() {
        int sum = 0;
        for (int i = 0; i < inFlight.length(); i++) {
            sum += inFlight.get(i);
        }
        return sum;
    }

    /** The finished calls of one request that are still among the last {@value #KEPT}. */
    public List<CallRecord> callsOf(String requestId) {
        List<CallRecord> found = new ArrayList<>();
        for (int i = 0; i < KEPT; i++) {
            CallRecord r = recent.get(i);
            if (r != null && r.requestId().equals(requestId)) {
                found.add(r);
            }
        }
        found.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return found;
    }
}
