package io.loomgate.http2.hpack;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Iterator;

/**
 * HPACK's dynamic table (RFC 7541 section 2.3.2, 4): newest first, bounded in octets by its
 * maximum size, which evicts the oldest entries as new ones come or the maximum shrinks. An entry
 * larger than the whole table empties it and is not kept.
 */
final class DynamicTable {

    private final ArrayDeque<HeaderField> entries = new ArrayDeque<>();
    /** For the encoder's look-ups: the newest entry of each name and value, and of each name, by the number it was added as. */
    private final Map<HeaderField, Long> byField = new HashMap<>();
    private final Map<String, Long> byName = new HashMap<>();
    private long added;
    private long evicted;
    private long size;
    private long maxSize;

    DynamicTable(long maxSize) {
        this.maxSize = maxSize;
    }

    int length() {
        return entries.size();
    }

    long size() {
        return size;
    }

    long maxSize() {
        return maxSize;
    }

    /** Entry {@code i}, 1 being the newest. */
    HeaderField get(int i) {
        Iterator<HeaderField> it = entries.iterator();
        for (int n = 1; n < i; n++) {
            it.next();
        }
        return it.next();
    }

    void add(HeaderField f) {
        HeaderField plain = f.sensitive() ? new HeaderField(f.name(), f.value()) : f;
        evictTo(maxSize - plain.size());
        if (plain.size() <= maxSize) {
            entries.addFirst(plain);
            size += plain.size();
            added++;
            byField.put(plain, added);
            byName.put(plain.name(), added);
        }
    }

    void resize(long newMax) {
        maxSize = newMax;
        evictTo(newMax);
    }

    /** The newest entry with this name and value (1-based), or 0. */
    int indexOf(String name, String value) {
        return index(byField.get(new HeaderField(name, value)));
    }

    /** The newest entry with this name, or 0. */
    int indexOfName(String name) {
        return index(byName.get(name));
    }

    /** Entry number {@code seq} (as added) is at index added - seq + 1, while it has not been evicted. */
    private int index(Long seq) {
        return seq == null || seq <= evicted ? 0 : (int) (added - seq + 1);
    }

    private void evictTo(long limit) {
        while (size > Math.max(limit, 0) && !entries.isEmpty()) {
            HeaderField oldest = entries.removeLast();
            size -= oldest.size();
            evicted++;
            byField.remove(oldest, evicted);   // only if no newer entry took its place
            byName.remove(oldest.name(), evicted);
        }
    }
}
