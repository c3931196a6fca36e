package io.loomgate.edge.limit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A bounded table of per-key state (a rate limit's buckets), least recently used first out: when it
 * is full, a new key takes the place of the key used longest ago. A flood of new keys therefore
 * evicts the flood's own old keys (and idle clients, whose buckets have refilled and lose nothing),
 * while a client being limited right now is recently used and keeps its state. A new client always
 * gets a slot of its own: nobody is locked out because the table is full.
 *
 * <p>Sixteen segments, each its own {@link LinkedHashMap} in access order under its own lock, so
 * requests for different keys rarely wait for each other. Memory is about {@value #BYTES_PER_KEY}
 * bytes a key (a 16-byte digest, the value, the map entry), bounded by {@code maxKeys} whatever the
 * keys' length.
 *
 * @param <V> the state kept per key
 */
final class KeyTable<V> {

    /** Measured heap per held key with a token bucket as the value (KeyTableTest), rounded up. */
    static final int BYTES_PER_KEY = 128;
    private static final int SEGMENTS = 16;

    private final Segment<V>[] segments;
    private final LongAdder evictions = new LongAdder();
    private final int maxKeys;

    @SuppressWarnings("unchecked")
    KeyTable(int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be >= 1: " + maxKeys);
        }
        this.maxKeys = maxKeys;
        int segmentCount = Math.min(SEGMENTS, maxKeys);
        segments = new Segment[segmentCount];
        for (int i = 0; i < segmentCount; i++) {
            // Spread the remainder so the segments hold maxKeys in all.
            segments[i] = new Segment<>(maxKeys / segmentCount + (i < maxKeys % segmentCount ? 1 : 0), evictions);
        }
    }

    /**
     * Runs {@code use} on {@code key}'s state (made by {@code create} when the key is new, evicting
     * the least recently used key of its segment when that is full), under the segment's lock.
     */
    <R> R with(KeyDigest key, Function<KeyDigest, V> create, Function<V, R> use) {
        Segment<V> s = segments[(int) Long.remainderUnsigned(key.low(), segments.length)];
        synchronized (s) {
            V value = s.get(key);
            if (value == null) {
                value = create.apply(key);
                s.put(key, value);
            }
            return use.apply(value);
        }
    }

    /** What {@code read} makes of {@code key}'s state, without creating any; null when the key has none. */
    <R> R peek(KeyDigest key, Function<V, R> read) {
        Segment<V> s = segments[(int) Long.remainderUnsigned(key.low(), segments.length)];
        synchronized (s) {
            V value = s.get(key);
            return value == null ? null : read.apply(value);
        }
    }

    /** Keys held now. */
    int size() {
        int n = 0;
        for (Segment<V> s : segments) {
            synchronized (s) {
                n += s.size();
            }
        }
        return n;
    }

    int maxKeys() {
        return maxKeys;
    }

    /** Keys evicted to make room for new ones since start. */
    long evictions() {
        return evictions.sum();
    }

    private static final class Segment<V> extends LinkedHashMap<KeyDigest, V> {
        private final int capacity;
        private final LongAdder evictions;

        Segment(int capacity, LongAdder evictions) {
            super(16, 0.75f, true);
            this.capacity = capacity;
            this.evictions = evictions;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<KeyDigest, V> eldest) {
            if (size() > capacity) {
                evictions.increment();
                return true;
            }
            return false;
        }
    }
}
