package io.loomgate.upstream.cache;

import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.Map;
import java.util.Optional;

/**
 * A composed call's own {@code "cache"}: an object of the fields an upstream's cache takes, for a
 * cache of the call's own apart from its upstream's (calls that declare the same settings for one
 * upstream share one), or {@code false} for none, not even the upstream's. A call without it goes
 * through its upstream's cache, if the upstream has one.
 *
 * @param settings the call's own cache; empty for {@code false}
 */
public record CallCache(Optional<CacheSettings> settings) {

    /** {@code "cache": false}. */
    public static final CallCache OFF = new CallCache(Optional.empty());

    /** The call's {@code "cache"}, if it says one. */
    public static Optional<CallCache> read(Fields call) throws RouteFileException {
        Optional<Object> v = call.optionalValue("cache");
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (Boolean.FALSE.equals(v.get())) {
            return Optional.of(OFF);
        }
        if (!(v.get() instanceof Map<?, ?>)) {
            throw call.bad("cache", "must be an object of cache settings (as an upstream's \"cache\") or false (no cache)", v.get());
        }
        return Optional.of(new CallCache(CacheSettings.read(call)));
    }
}
