package io.loomgate.upstream.balance;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * A consistent-hash ring with {@value #POINTS} points per endpoint (as ketama does): a key goes to
 * the first point at or after its hash. When one of N endpoints leaves, only its keys move (about
 * 1/N of them), each to the next point's endpoint; the others stay where they were. A ring rather
 * than Maglev: it is a sorted array and a binary search, it keeps a key's place when endpoints come
 * and go without rebuilding a table, and with 160 points the load spreads within a few percent.
 */
final class HashRing {

    static final int POINTS = 160;

    private final long[] points;
    private final int[] owners;

    HashRing(List<String> keys) {
        int n = keys.size() * POINTS;
        long[][] pairs = new long[n][];
        for (int m = 0; m < keys.size(); m++) {
            for (int p = 0; p < POINTS; p++) {
                pairs[m * POINTS + p] = new long[] {hash(keys.get(m) + "#" + p), m};
            }
        }
        Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
        points = new long[n];
        owners = new int[n];
        for (int i = 0; i < n; i++) {
            points[i] = pairs[i][0];
            owners[i] = (int) pairs[i][1];
        }
    }

    /** The first endpoint from {@code key}'s place on the ring that {@code usable} takes; -1 if none. */
    int owner(String key, IntPredicate usable) {
        int at = Arrays.binarySearch(points, hash(key));
        int start = at >= 0 ? at : -at - 1;
        for (int i = 0; i < points.length; i++) {
            int owner = owners[(start + i) % points.length];
            if (usable.test(owner)) {
                return owner;
            }
        }
        return -1;
    }

    /** 64-bit FNV-1a, then a finaliser (MurmurHash3's) so near keys land far apart. */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
