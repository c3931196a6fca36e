package io.loomgate.upstream;

import io.loomgate.core.port.Extensions;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.cache.CachedCalls;
import java.util.List;

/**
 * What the registry, the admin API and the metrics see of an upstream beyond its calls: its
 * endpoints, its cache, and what it runs on its own. The core's port ({@link Upstream}) knows
 * none of it; a kind whose upstreams have any of it implements this beside the port.
 */
public interface Operated {

    /** Nothing to see: an upstream with one endpoint, no cache and nothing running on its own. */
    Operated NONE = new Operated() {
    };

    /** What {@code u} shows the operator: itself when it implements this, else {@link #NONE}. */
    static Operated of(Upstream u) {
        return u instanceof Operated o ? o : NONE;
    }

    /** Its endpoints and what is known of each now, for the admin API and the metrics; none for an upstream with one. */
    default List<EndpointState> endpoints() {
        return List.of();
    }

    /** Its caches of answers: its own {@code "cache"} first, then those its composed calls declare; none by default. */
    default List<CachedCalls> caches() {
        return List.of();
    }

    /**
     * What the composed calls to it in the plan just compiled ask of it beyond their shape (a
     * {@code "cache"} of their own), each call's: it makes what they need and lets go of what no
     * call asks any more. Nothing by default.
     */
    default void callsDeclared(List<Extensions> calls) {
    }

    /** True when its calls go to one of several endpoints (which it notes in {@link EndpointNote}). */
    default boolean replicated() {
        return false;
    }

    /** Starts what it runs on its own (active health checks), once its plan serves; nothing by default. */
    default void activate() {
    }

    /** Stops what {@link #activate} started: no plan serves it any more. */
    default void deactivate() {
    }
}
