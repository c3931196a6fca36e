package io.loomgate.module;

/**
 * How a route-file error helps its reader: the field an unknown one is most likely a typo of, and
 * a size written the way the file writes sizes.
 */
final class Nearest {

    private Nearest() {
    }

    /** The allowed name {@code name} is most likely a typo of: at most two edits away, ignoring case; null when none is. */
    static String of(String name, java.util.List<String> allowed) {
        if (name.length() > 64) {
            return null;
        }
        String best = null;
        int bestDistance = 3;
        for (String a : allowed) {
            int d = distance(name.toLowerCase(java.util.Locale.ROOT), a.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = a;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein's edit distance. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** {@code n} bytes as a route file writes a size: {@code 64MB}, {@code 1KB}, {@code 100B}. */
    static String size(long n) {
        return n % (1L << 30) == 0 ? (n >> 30) + "GB" : n % (1L << 20) == 0 ? (n >> 20) + "MB" : n % 1024 == 0 ? (n >> 10) + "KB" : n + "B";
    }
}
