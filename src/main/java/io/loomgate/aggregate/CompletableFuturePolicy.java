package io.loomgate.aggregate;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The unstructured baseline: the same calls with {@code CompletableFuture.supplyAsync}, merged as
 * under "all", except that a part still running when the answer is written is {@code orphaned}:
 * {@code cancel(true)} on a CompletableFuture does not interrupt its task, so it runs on. A part
 * still queued then is {@code cancelled}: that much {@code cancel} does, it never starts.
 *
 * @param executor     where the calls run
 * @param executorName how the response names it
 */
record CompletableFuturePolicy(Executor executor, String executorName) implements Policy {

    CompletableFuturePolicy {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(executorName, "executorName");
    }

    @Override
    public String name() {
        return "completable-future";
    }

    /** The baseline fails fast like "all"; it just cannot cancel. */
    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_FAILURE;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        return AllPolicy.mergeAll(name(), result, new Outcome.Orphaned(), new Outcome.Cancelled());
    }
}
