package io.loomgate.upstream.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * One upstream's stored answers, bounded in bytes: at most {@code maxBytes} of bodies, fields and
 * keys, the least recently used evicted first, and no answer larger than a tenth of it stored at
 * all. An answer is found by its primary key (the request's method and URL) and then by the values
 * of the request fields its {@code Vary} names, so one URL may hold a variant per {@code
 * Accept-Language}. The few operations hold one lock each; none does I/O.
 */
public final class AnswerCache {

    /** One variant: its full key, its primary key, the answer, and the bytes it is counted as. */
    private record Entry(String key, String primary, StoredAnswer answer, long bytes) {
    }

    private final long maxBytes;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    /** The fields each primary key's answers vary on, as its latest stored answer said. */
    private final Map<String, List<String>> varyOn = new HashMap<>();
    /** How many variants each primary key has stored. */
    private final Map<String, Integer> variants = new HashMap<>();
    private long held;
    private final LongAdder evictions = new LongAdder();

    public AnswerCache(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The variant of {@code primary} for a request whose fields {@code field} gives (a name to its value, or ""). */
    public synchronized Optional<StoredAnswer> get(String primary, Function<String, String> field) {
        List<String> names = varyOn.get(primary);
        if (names == null) {
            return Optional.empty();
        }
        Entry e = entries.get(key(primary, values(names, field)));
        return Optional.ofNullable(e).map(Entry::answer);
    }

    /**
     * Stores {@code answer} under {@code primary}, replacing the variant with its {@code Vary}
     * values, and evicts the least recently used until it fits. False, and nothing stored, when it
     * alone is over a tenth of {@code maxBytes}.
     */
    public synchronized boolean put(String primary, StoredAnswer answer) {
        String key = key(primary, answer.varyValues());
        long bytes = answer.bytes() + 2L * key.length();
        if (bytes > maxBytes / 10) {
            return false;
        }
        List<String> names = answer.vary();
        List<String> before = varyOn.get(primary);
        if (before != null && !before.equals(names)) {
            removeIf(e -> e.primary().equals(primary) && !e.key().equals(key));   // they varied on other fields: unreachable now
        }
        varyOn.put(primary, names);
        Entry old = entries.put(key, new Entry(key, primary, answer, bytes));
        held += bytes - (old == null ? 0 : old.bytes());
        if (old == null) {
            variants.merge(primary, 1, Integer::sum);
        }
        for (Iterator<Entry> it = entries.values().iterator(); held > maxBytes && it.hasNext(); ) {
            Entry eldest = it.next();
            if (eldest.key().equals(key)) {
                continue;
            }
            it.remove();
            held -= eldest.bytes();
            evictions.increment();
            dropped(eldest.primary());
        }
        return true;
    }

    /**
     * Removes every variant of {@code primary}, and of the keys that extend it past a {@code \u0001}
     * (each caller's, for a cache keyed by caller); how many there were.
     */
    public synchronized int purge(String primary) {
        return removeIf(e -> e.primary().equals(primary) || e.primary().startsWith(primary + "\u0001"));
    }

    /**
     * The answers {@code what} takes, removed, or with {@link Purge#soft} marked stale from
     * {@code nowMillis} ({@link StoredAnswer#purged}); how many.
     */
    public synchronized int purge(Purge what, long nowMillis) {
        if (!what.soft()) {
            return removeIf(e -> what.takes(e.primary(), e.answer()));
        }
        int n = 0;
        for (Map.Entry<String, Entry> me : entries.entrySet()) {   // setValue: no structural change, the access order kept
            Entry e = me.getValue();
            if (what.takes(e.primary(), e.answer())) {
                me.setValue(new Entry(e.key(), e.primary(), e.answer().purged(nowMillis), e.bytes()));
                n++;
            }
        }
        return n;
    }

    /** Removes everything; how many answers there were. */
    public synchronized int purgeAll() {
        int n = entries.size();
        entries.clear();
        varyOn.clear();
        variants.clear();
        held = 0;
        return n;
    }

    public synchronized long bytes() {
        return held;
    }

    public synchronized int size() {
        return entries.size();
    }

    public long maxBytes() {
        return maxBytes;
    }

    public long evictions() {
        return evictions.sum();
    }

    /** The values of {@code names} in a request, for its variant's key. */
    public static List<String> values(List<String> names, Function<String, String> field) {
        List<String> v = new ArrayList<>(names.size());
        for (String n : names) {
            String value = field.apply(n);
            v.add(value == null ? "" : value.strip());
        }
        return v;
    }

    private static String key(String primary, List<String> varyValues) {
        return varyValues.isEmpty() ? primary : primary + "\u0000" + String.join("\u0000", varyValues);
    }

    private int removeIf(java.util.function.Predicate<Entry> gone) {
        int n = 0;
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (gone.test(e)) {
                it.remove();
                held -= e.bytes();
                dropped(e.primary());
                n++;
            }
        }
        return n;
    }

    /** One variant of {@code primary} is gone; what is known of its fields goes with the last. */
    private void dropped(String primary) {
        if (variants.merge(primary, -1, Integer::sum) <= 0) {
            variants.remove(primary);
            varyOn.remove(primary);
        }
    }
}
