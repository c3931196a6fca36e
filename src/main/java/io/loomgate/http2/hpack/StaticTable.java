package io.loomgate.http2.hpack;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** HPACK's static table (RFC 7541 Appendix A): indices 1 to 61. */
final class StaticTable {

    static final List<HeaderField> ENTRIES = List.of(
            f(":authority", ""), f(":method", "GET"), f(":method", "POST"), f(":path", "/"),
            f(":path", "/index.html"), f(":scheme", "http"), f(":scheme", "https"), f(":status", "200"),
            f(":status", "204"), f(":status", "206"), f(":status", "304"), f(":status", "400"),
            f(":status", "404"), f(":status", "500"), f("accept-charset", ""), f("accept-encoding", "gzip, deflate"),
            f("accept-language", ""), f("accept-ranges", ""), f("accept", ""), f("access-control-allow-origin", ""),
            f("age", ""), f("allow", ""), f("authorization", ""), f("cache-control", ""),
            f("content-disposition", ""), f("content-encoding", ""), f("content-language", ""), f("content-length", ""),
            f("content-location", ""), f("content-range", ""), f("content-type", ""), f("cookie", ""),
            f("date", ""), f("etag", ""), f("expect", ""), f("expires", ""),
            f("from", ""), f("host", ""), f("if-match", ""), f("if-modified-since", ""),
            f("if-none-match", ""), f("if-range", ""), f("if-unmodified-since", ""), f("last-modified", ""),
            f("link", ""), f("location", ""), f("max-forwards", ""), f("proxy-authenticate", ""),
            f("proxy-authorization", ""), f("range", ""), f("referer", ""), f("refresh", ""),
            f("retry-after", ""), f("server", ""), f("set-cookie", ""), f("strict-transport-security", ""),
            f("transfer-encoding", ""), f("user-agent", ""), f("vary", ""), f("via", ""),
            f("www-authenticate", ""));

    static final int SIZE = ENTRIES.size();

    /** The index of each name's first entry, and of each name and value pair. */
    private static final Map<String, Integer> BY_NAME = new HashMap<>();
    private static final Map<HeaderField, Integer> BY_FIELD = new HashMap<>();

    static {
        for (int i = SIZE; i >= 1; i--) {
            HeaderField e = ENTRIES.get(i - 1);
            BY_NAME.put(e.name(), i);
            BY_FIELD.put(e, i);
        }
    }

    private StaticTable() {
    }

    static HeaderField get(int index) {
        return ENTRIES.get(index - 1);
    }

    /** The index of an entry with this name and value, or 0. */
    static int indexOf(String name, String value) {
        return BY_FIELD.getOrDefault(new HeaderField(name, value), 0);
    }

    /** The index of the first entry with this name, or 0. */
    static int indexOfName(String name) {
        return BY_NAME.getOrDefault(name, 0);
    }

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }
}
