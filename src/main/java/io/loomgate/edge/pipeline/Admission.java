package io.loomgate.edge.pipeline;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The admission limit: at most {@code max} requests are served at once, and the rest are shed at
 * once rather than queued. With virtual threads nothing else bounds concurrency, so this is what
 * keeps an overload from turning into unbounded memory and latency. {@code max == 0} admits all.
 */
public final class Admission {

    private final int max;
    private final AtomicInteger admitted = new AtomicInteger();
    private final LongAdder shed = new LongAdder();

    public Admission(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0: " + max);
        }
        this.max = max;
    }

    /** Admits the caller, who must then {@link #exit()}, or counts it as shed and returns false. */
    public boolean tryEnter() {
        int now = admitted.incrementAndGet();
        if (max > 0 && now > max) {
            admitted.decrementAndGet();
            shed.increment();
            return false;
        }
        return true;
    }

    public void exit() {
        admitted.decrementAndGet();
    }

    /** Requests being served now, under the limit. */
    public int admitted() {
        return admitted.get();
    }

    /** Requests shed since start. */
    public long shed() {
        return shed.sum();
    }

    public int max() {
        return max;
    }
}
