package io.loomgate.http;

/**
 * A 64-bit summary of a set of field names, for {@link Headers}' lookups: a bit for each name from
 * its length and first letter, the same for any spelling's case. A name whose bit is clear in a
 * summary is not among its names, which answers most lookups of an absent name, the common case,
 * without a scan; a set bit only says the scan may find it.
 */
final class NameBits {

    private NameBits() {
    }

    /**
     * One of 64 bits from a name's length and first letter; every bit for a name that starts beyond
     * ASCII, where {@link String#equalsIgnoreCase} has case rules of its own, so such a name is
     * always scanned for.
     */
    static long of(String name) {
        if (name.isEmpty()) {
            return 1L;
        }
        char c = name.charAt(0);
        return c >= 0x80 ? -1L : 1L << (name.length() * 7 + (c | 0x20));
    }

    /** The bits of all of {@code names}. */
    static long of(String[] names) {
        long bits = 0;
        for (String n : names) {
            bits |= of(n);
        }
        return bits;
    }
}
