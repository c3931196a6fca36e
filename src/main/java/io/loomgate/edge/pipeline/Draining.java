package io.loomgate.edge.pipeline;

/** What the pipeline needs to know of the server's shutdown. */
public interface Draining {

    /** True once shutdown has begun: answers then close their connections. */
    boolean isDraining();

    /** True for a request whose first byte came after the server began refusing new work. */
    boolean isNew(long arrivalNanos);
}
