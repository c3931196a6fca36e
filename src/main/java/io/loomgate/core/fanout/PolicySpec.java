package io.loomgate.core.fanout;

import io.loomgate.json.JsonWriter;

/**
 * A policy as one route declares it, checked: the policy it builds for the route, and its fields as
 * {@code --print-routes} writes them.
 */
public interface PolicySpec {

    /** The {@code policy} value. */
    String name();

    /** The route's policy; a new one per route, since a hedge keeps its budget and latency window. */
    Policy build();

    /** Its own fields, as the route file writes them; none for most. */
    default void print(JsonWriter w) {
    }

    /** True for a policy of exactly one upstream, whose own status or value may be the answer ({@code single}). */
    default boolean oneUpstream() {
        return false;
    }

    /** True for a policy the CompletableFuture baseline can run: it stops at the first failure ({@code all}, {@code single}). */
    default boolean stopsAtFirstFailure() {
        return false;
    }
}
