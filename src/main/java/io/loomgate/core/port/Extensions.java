package io.loomgate.core.port;

import java.util.List;
import java.util.Optional;

/**
 * What a route's call asks of its upstream's own layers beyond the call's shape (a cache of its
 * own, say): read and checked by the upstream's kind when the route file is read, carried by the
 * core unread, and found by type where that layer runs. Envoy's typed per-route filter config, for
 * one call; the core never looks inside.
 *
 * <pre>{@code
 * Optional<CallCache> own = call.extensions().find(CallCache.class);
 * }</pre>
 *
 * @param values at most one of each type
 */
public record Extensions(List<Object> values) {

    /** None: the upstream's layers do as they are declared. */
    public static final Extensions NONE = new Extensions(List.of());

    public Extensions {
        values = List.copyOf(values);
        if (values.stream().map(Object::getClass).distinct().count() != values.size()) {
            throw new IllegalArgumentException("two extensions of one type: " + values);
        }
    }

    /** The one of {@code type}, when the call has it. */
    public <T> Optional<T> find(Class<T> type) {
        return values.stream().filter(type::isInstance).map(type::cast).findFirst();
    }
}
