package io.loomgate.upstream;

import java.util.concurrent.atomic.LongAdder;

/** An upstream's retries: sent, and refused by the budget (hedge backups refused by it are counted by the hedge). */
public final class RetryStats {

    private final LongAdder sent = new LongAdder();
    private final LongAdder refused = new LongAdder();

    void sent() {
        sent.increment();
    }

    void refused() {
        refused.increment();
    }

    public long sentCount() {
        return sent.sum();
    }

    public long refusedCount() {
        return refused.sum();
    }
}
