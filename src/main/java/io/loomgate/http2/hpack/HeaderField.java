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

    // Written out, not the record's generated ones: the dynamic table's look-ups call them for every
    // field of every block (JFR showed the generated equals among an HTTP/2 proxy's hottest frames).
    @Override
    public boolean equals(Object o) {
        return o instanceof HeaderField other && sensitive == other.sensitive && name.equals(other.name) && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + value.hashCode() + (sensitive ? 1 : 0);
    }

    /** Its size as a table entry counts it (RFC 7541 section 4.1): its octets and 32. */
    public long size() {
        return (long) name.length() + value.length() + 32;
    }
}
