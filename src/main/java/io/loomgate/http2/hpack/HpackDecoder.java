package io.loomgate.http2.hpack;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes header blocks (RFC 7541), one connection's, in order: its dynamic table follows the
 * peer's encoder, bounded by the size this side allows ({@code SETTINGS_HEADER_TABLE_SIZE}).
 * Strict: an index of 0 or past the tables, an integer past 2^31 - 1, a string longer than what is
 * left, a table size update after a field or above the limit, and bad Huffman are each an
 * {@link HpackException}, after which the connection's tables can no longer be trusted. A block
 * whose fields exceed {@code maxHeaderListSize} ({@code SETTINGS_MAX_HEADER_LIST_SIZE}) is decoded
 * to its end all the same, so the table stays in step, but keeps no field past the limit and says
 * so: the stream is refused, the connection goes on.
 */
public final class HpackDecoder {

    /** What a block held: its fields, in order, or {@code tooLarge} with those that fit. */
    public record Block(List<HeaderField> fields, boolean tooLarge) {
    }

    private final DynamicTable table;
    private final long maxHeaderListSize;
    private long maxTableSize;
    private byte[] in;
    private int pos;
    private int end;

    public HpackDecoder(long maxTableSize, long maxHeaderListSize) {
        this.maxTableSize = maxTableSize;
        this.maxHeaderListSize = maxHeaderListSize;
        this.table = new DynamicTable(maxTableSize);
    }

    /** The most this side now allows the dynamic table (a new {@code SETTINGS_HEADER_TABLE_SIZE}). */
    public void maxTableSize(long max) {
        maxTableSize = max;
        if (table.maxSize() > max) {
            table.resize(max);
        }
    }

    /** Decodes one whole header block (the fragments of a HEADERS frame and its CONTINUATIONs, joined). */
    public Block decode(byte[] block, int off, int len) throws HpackException {
        in = block;
        pos = off;
        end = off + len;
        List<HeaderField> fields = new ArrayList<>();
        long listSize = 0;
        boolean tooLarge = false;
        while (pos < end) {
            int b = in[pos] & 0xff;
            HeaderField f;
            if ((b & 0x80) != 0) {
                f = lookup(readInt(7));
            } else if ((b & 0xc0) == 0x40) {
                f = literal(6, false);
                table.add(f);
            } else if ((b & 0xe0) == 0x20) {
                if (!fields.isEmpty() || tooLarge) {
                    throw new HpackException("a dynamic table size update after a field");
                }
                long size = readInt(5);
                if (size > maxTableSize) {
                    throw new HpackException("a dynamic table size update to " + size + ", above the " + maxTableSize + " allowed");
                }
                table.resize(size);
                continue;
            } else {
                f = literal(4, (b & 0x10) != 0);
            }
            listSize += f.size();
            if (listSize > maxHeaderListSize) {
                tooLarge = true;
            } else {
                fields.add(f);
            }
        }
        in = null;
        return new Block(List.copyOf(fields), tooLarge);
    }

    /** The entries the dynamic table holds now (for tests and metrics). */
    int tableLength() {
        return table.length();
    }

    long tableSize() {
        return table.size();
    }

    private HeaderField literal(int prefix, boolean sensitive) throws HpackException {
        int index = readInt(prefix);
        String name = index == 0 ? readString() : lookup(index).name();
        return new HeaderField(name, readString(), sensitive);
    }

    private HeaderField lookup(int index) throws HpackException {
        if (index == 0) {
            throw new HpackException("index 0");
        }
        if (index <= StaticTable.SIZE) {
            return StaticTable.get(index);
        }
        int dynamic = index - StaticTable.SIZE;
        if (dynamic > table.length()) {
            throw new HpackException("index " + index + " past the tables (" + (StaticTable.SIZE + table.length()) + " entries)");
        }
        return table.get(dynamic);
    }

    /** An integer with an N-bit prefix (RFC 7541 section 5.1), at most 2^31 - 1. */
    private int readInt(int prefix) throws HpackException {
        int mask = (1 << prefix) - 1;
        int value = in[pos++] & mask;
        if (value < mask) {
            return value;
        }
        long v = value;
        for (int shift = 0; ; shift += 7) {
            if (pos >= end) {
                throw new HpackException("an integer cut off by the block's end");
            }
            int b = in[pos++] & 0xff;
            v += (long) (b & 0x7f) << shift;
            if (v > Integer.MAX_VALUE) {
                throw new HpackException("an integer past 2^31 - 1");
            }
            if ((b & 0x80) == 0) {
                return (int) v;
            }
        }
    }

    private String readString() throws HpackException {
        if (pos >= end) {
            throw new HpackException("a string cut off by the block's end");
        }
        boolean huffman = (in[pos] & 0x80) != 0;
        int length = readInt(7);
        if (length > end - pos) {
            throw new HpackException("a string of " + length + " octets with " + (end - pos) + " left in the block");
        }
        byte[] octets = huffman ? Huffman.decode(in, pos, length) : java.util.Arrays.copyOfRange(in, pos, pos + length);
        pos += length;
        return new String(octets, StandardCharsets.ISO_8859_1);
    }
}
