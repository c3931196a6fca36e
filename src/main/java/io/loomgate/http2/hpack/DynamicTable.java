package io.loomgate.http2.hpack;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * HPACK's dynamic table (RFC 7541 section 2.3.2, 4): newest first, bounded in octets by its
 * maximum size, which evicts the oldest entries as new ones come or the maximum shrinks. An entry
 * larger than the whole table empties it and is not kept.
 */
final class DynamicTable {

    private final ArrayDeque<HeaderField> entries = new ArrayDeque<>();
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
        }
    }

    void resize(long newMax) {
        maxSize = newMax;
        evictTo(newMax);
    }

    /** The newest entry with this name and value (1-based), or 0. */
    int indexOf(String name, String value) {
        int i = 1;
        for (HeaderField e : entries) {
            if (e.name().equals(name) && e.value().equals(value)) {
                return i;
            }
            i++;
        }
        return 0;
    }

    /** The newest entry with this name, or 0. */
    int indexOfName(String name) {
        int i = 1;
        for (HeaderField e : entries) {
            if (e.name().equals(name)) {
                return i;
            }
            i++;
        }
        return 0;
    }

    private void evictTo(long limit) {
        while (size > Math.max(limit, 0) && !entries.isEmpty()) {
            size -= entries.removeLast().size();
        }
    }
}
