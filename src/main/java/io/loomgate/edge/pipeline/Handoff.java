package io.loomgate.edge.pipeline;

import java.util.function.Supplier;

/**
 * Where an admitted request's work runs: the route's handler, the way out and the write. With a
 * virtual thread per request that is right here; with the platform pool it is a pool thread, while
 * the virtual thread that read the head waits. The filters before it always run on the thread that
 * read the head, so a refused request never takes a pool thread.
 */
public interface Handoff {

    /** Runs here. */
    Handoff HERE = new Handoff() {
        @Override
        public <T> T work(Supplier<T> task) {
            return task.get();
        }
    };

    /**
     * Runs {@code task} and returns what it returns.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the work can no longer be taken (shutdown)
     */
    <T> T work(Supplier<T> task);
}
