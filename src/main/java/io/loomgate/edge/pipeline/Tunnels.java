package io.loomgate.edge.pipeline;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The tunnels a listener holds open at once ({@code --max-tunnels}): a request that asks to switch
 * protocols on a proxy route takes a place before it is forwarded, and keeps it until its tunnel
 * closes; past the limit it is refused with 503, counted, and logged (at most once every ten seconds,
 * with the count since the last line).
 */
public final class Tunnels {

    private static final System.Logger LOG = System.getLogger("loomgate.tunnels");
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;
    /** No limit: for tests and tools that build a pipeline by hand. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder refused = new LongAdder();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private final AtomicLong unlogged = new AtomicLong();

    public Tunnels(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0: " + max);
        }
        this.max = max;
    }

    /** Takes a place; false (counted and logged) when {@link #max()} are open. */
    boolean tryOpen() {
        while (true) {
            int now = open.get();
            if (now >= max) {
                refused.increment();
                log();
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void close() {
        open.decrementAndGet();
    }

    private void log() {
        unlogged.incrementAndGet();
        long last = lastLog.get();
        long now = System.nanoTime();
        if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
            LOG.log(Level.WARNING, "refused " + unlogged.getAndSet(0) + " tunnel(s): " + max
                    + " are open (--max-tunnels); loomgate_tunnels_refused_total counts them");
        }
    }

    public int open() {
        return open.get();
    }

    public int max() {
        return max;
    }

    public long refused() {
        return refused.sum();
    }
}
