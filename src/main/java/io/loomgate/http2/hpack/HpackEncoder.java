package io.loomgate.http2.hpack;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes header blocks (RFC 7541) for one connection, in order. A field in a table is sent as its
 * index; any other as a literal (with the name's index when a table has the name) that the peer adds
 * to its table, unless {@link Indexing} says the field is not worth a place there (sent without
 * indexing) or it is sensitive (sent as never indexed). Strings are Huffman-coded when that is no
 * longer than their octets. When the peer's {@code SETTINGS_HEADER_TABLE_SIZE} changes the table's
 * size, the next block starts with the size update (RFC 7541 section 4.2).
 */
public final class HpackEncoder {

    /** Which literals the peer is asked to keep in its table. */
    public enum Indexing {
        /** Every literal, as RFC 7541's examples (Appendix C) do. */
        ALL,
        /**
         * Not the fields whose values change with every message, nor one that would take more than
         * three quarters of the table: as nghttp2 (and so h2load, curl, Envoy) decides, plus the fields
         * loomgate writes anew for each request ({@code x-request-id}, {@code traceparent},
         * {@code server-timing}, {@code grpc-timeout}). Indexed, each of those evicted an entry that
         * could have been used again, and cost the encoder a table update for every answer (JFR: 10% of
         * the CPU samples of an HTTP/2 proxy under h2load went to the encoder and its table).
         */
        REUSED_ONLY
    }

    private static final java.util.Set<String> PER_MESSAGE = java.util.Set.of(":path", "age", "content-length", "etag",
            "if-modified-since", "if-none-match", "location", "set-cookie", "x-request-id", "traceparent", "server-timing",
            "grpc-timeout");

    private final DynamicTable table;
    private final boolean huffman;
    private final Indexing indexing;
    private final long ownLimit;
    /** The smallest size the table went through since the last block, and the size it ends at; -1: none. */
    private long smallestUpdate = -1;
    private long lastUpdate = -1;

    /**
     * @param tableSize the dynamic table's size to start with (4,096 until the peer says otherwise),
     *                  and the most this side ever uses, whatever the peer allows
     */
    public HpackEncoder(long tableSize, boolean huffman, Indexing indexing) {
        this.table = new DynamicTable(tableSize);
        this.huffman = huffman;
        this.indexing = indexing;
        this.ownLimit = tableSize;
    }

    /** The peer's {@code SETTINGS_HEADER_TABLE_SIZE}: the table takes the smaller of it and this side's own limit. */
    public void peerMaxTableSize(long peerMax) {
        long size = Math.min(peerMax, ownLimit);
        if (size == table.maxSize()) {
            return;
        }
        table.resize(size);
        smallestUpdate = smallestUpdate < 0 ? size : Math.min(smallestUpdate, size);
        lastUpdate = size;
    }

    public byte[] encode(List<HeaderField> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * fields.size() + 8);
        if (lastUpdate >= 0) {
            if (smallestUpdate < lastUpdate) {
                writeInt(out, 0x20, 5, smallestUpdate);
            }
            writeInt(out, 0x20, 5, lastUpdate);
            smallestUpdate = -1;
            lastUpdate = -1;
        }
        for (HeaderField f : fields) {
            encode(out, f);
        }
        return out.toByteArray();
    }

    private void encode(ByteArrayOutputStream out, HeaderField f) {
        boolean indexed = !f.sensitive() && (indexing == Indexing.ALL
                || !PER_MESSAGE.contains(f.name()) && f.size() <= table.maxSize() * 3 / 4);
        if (!f.sensitive()) {
            int exact = StaticTable.indexOf(f.name(), f.value());
            if (exact == 0 && indexed) {   // a field never indexed is never in the dynamic table
                int dynamic = table.indexOf(f.name(), f.value());
                exact = dynamic == 0 ? 0 : StaticTable.SIZE + dynamic;
            }
            if (exact != 0) {
                writeInt(out, 0x80, 7, exact);
                return;
            }
        }
        int name = StaticTable.indexOfName(f.name());
        if (name == 0) {
            int dynamic = table.indexOfName(f.name());
            name = dynamic == 0 ? 0 : StaticTable.SIZE + dynamic;
        }
        if (f.sensitive()) {
            writeInt(out, 0x10, 4, name);      // never indexed (RFC 7541 section 6.2.3)
        } else if (indexed) {
            writeInt(out, 0x40, 6, name);      // with incremental indexing (6.2.1)
        } else {
            writeInt(out, 0x00, 4, name);      // without indexing (6.2.2)
        }
        if (name == 0) {
            writeString(out, f.name());
        }
        writeString(out, f.value());
        if (indexed) {
            table.add(f);
        }
    }

    private void writeString(ByteArrayOutputStream out, String s) {
        byte[] octets = s.getBytes(StandardCharsets.ISO_8859_1);
        if (huffman && Huffman.encodedLength(octets) <= octets.length) {
            byte[] coded = Huffman.encode(octets);
            writeInt(out, 0x80, 7, coded.length);
            out.writeBytes(coded);
        } else {
            writeInt(out, 0x00, 7, octets.length);
            out.writeBytes(octets);
        }
    }

    /** An integer with an N-bit prefix (RFC 7541 section 5.1), the first octet's high bits {@code flags}. */
    static void writeInt(ByteArrayOutputStream out, int flags, int prefix, long value) {
        int max = (1 << prefix) - 1;
        if (value < max) {
            out.write(flags | (int) value);
            return;
        }
        out.write(flags | max);
        long rest = value - max;
        while (rest >= 128) {
            out.write((int) (rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write((int) rest);
    }
}
