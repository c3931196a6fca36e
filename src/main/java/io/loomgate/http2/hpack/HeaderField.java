package io.loomgate.http2.hpack;

/**
 * One field of a header block, as HPACK carries it: a name and a value, each octets (read and
 * written as ISO-8859-1, so every octet maps to one char and back).
 *
 * @param sensitive sent as never indexed (RFC 7541 section 6.2.3): no table on the way may keep it
 */
public record HeaderField(String name, String value, boolean sensitive) {

    public HeaderField(String name, String value) {
        this(name, value, false);
    }

    /** Its size as a table entry counts it (RFC 7541 section 4.1): its octets and 32. */
    public long size() {
        return (long) name.length() + value.length() + 32;
    }
}
