package io.loomgate.upstream;

import io.loomgate.core.call.Value;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.observe.event.CallRecord;
import io.loomgate.observe.event.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every upstream call as the call itself saw it: when it started, when it ended, and how. It hears
 * the upstream stack's events ({@link Recorded} tells them); the metrics read calls in flight from
 * here, and tests read the records to see cancellation happen rather than infer it (an interrupted
 * call ends early, as {@code cancelled} or {@code timeout}, at the moment it stopped). Keeps the
 * last {@value #KEPT} finished calls, without the values they gave.
 */
public final class CallLog implements Events {

    private static final int KEPT = 4096;

    private final Map<UpstreamId, LongAdder> inFlight;
    private final AtomicReferenceArray<CallRecord> recent = new AtomicReferenceArray<>(KEPT);
    private final AtomicLong written = new AtomicLong();

    CallLog(Map<UpstreamId, LongAdder> inFlight) {
        this.inFlight = new ConcurrentHashMap<>(inFlight);
    }

    /** Counts the calls of {@code id} from now on too: an upstream a reload added. */
    void track(UpstreamId id) {
        inFlight.computeIfAbsent(id, k -> new LongAdder());
    }

    @Override
    public void callStarted(UpstreamId upstream) {
        inFlight.get(upstream).increment();
    }

    /**
     * What a kept success says: that it succeeded, not what it gave. The value itself is never kept:
     * {@value #KEPT} answers of up to an upstream's {@code maxBodyBytes} each would hold gigabytes
     * after they were served.
     */
    static final Outcome.Success SUCCEEDED = new Outcome.Success(Value.text(""));

    @Override
    public void callEnded(CallRecord call) {
        CallRecord kept = call.outcome() instanceof Outcome.Success
                ? new CallRecord(call.upstream(), call.requestId(), call.startNanos(), call.endNanos(), SUCCEEDED) : call;
        recent.set((int) (written.getAndIncrement() % KEPT), kept);
        inFlight.get(call.upstream()).decrement();
    }

    /** Calls of {@code service} running now. */
    public long inFlight(UpstreamId service) {
        LongAdder counter = inFlight.get(service);
        return counter == null ? 0 : counter.sum();
    }

    /** Calls running now, across all upstreams. */
    public long inFlight() {
        long sum = 0;
        for (LongAdder counter : inFlight.values()) {
            sum += counter.sum();
        }
        return sum;
    }

    /** The last {@code n} calls of {@code upstream} that did not succeed, among the last {@value #KEPT}, newest first. */
    public List<CallRecord> recentFailures(UpstreamId upstream, int n) {
        List<CallRecord> found = new ArrayList<>();
        long end = written.get();
        for (long i = end - 1; i >= Math.max(0, end - KEPT) && found.size() < n; i--) {
            CallRecord r = recent.get((int) (i % KEPT));
            if (r != null && r.upstream().equals(upstream) && !(r.outcome() instanceof io.loomgate.core.call.Outcome.Success)) {
                found.add(r);
            }
        }
        return found;
    }

    /** The finished calls of one request that are still among the last {@value #KEPT}, oldest first. */
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
