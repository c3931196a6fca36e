package io.loomgate.api;

import io.loomgate.json.JsonWriter;

/**
 * What the admin API asks of the running gateway. The composition root holds the plan being served
 * and implements this; the endpoints ({@link AdminEndpoints}) only answer with it.
 */
public interface AdminControl {

    /** How a reload ended. */
    sealed interface Reload permits Reload.Done, Reload.Refused {

        /** The new plan serves from the next request on; {@code summary} says what changed. */
        record Done(String summary) implements Reload {
        }

        /** The file was refused and the running plan kept; {@code error} is the start's one line. */
        record Refused(String error) implements Reload {
        }
    }

    /** Reads and checks the route file again and, if it is good, swaps it in. */
    Reload reload(String trigger);

    /** The running plan (secrets redacted), its source, its digest, when it was loaded, and the last reload's error. */
    void writeConfig(JsonWriter w);

    /** Each upstream's state now: breaker, calls in flight, idle pooled connections, retries, recent errors. */
    void writeUpstreams(JsonWriter w);

    /** The stores loomgate keeps state in: the Redis of shared rate limits ({@code "redis"}), when there is one. */
    void writeStore(JsonWriter w);

    /**
     * Removes the answers {@code upstream}'s cache holds: all of them, or those of one {@code key}
     * (the call's path and query, {@code /items/7?lang=en}); how many went, or empty when no
     * upstream of that id has a cache.
     */
    java.util.OptionalInt purgeCache(String upstream, io.loomgate.upstream.cache.Purge what);
}
