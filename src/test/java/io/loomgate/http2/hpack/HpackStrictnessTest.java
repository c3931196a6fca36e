package io.loomgate.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What a hostile or broken encoder sends, refused; the bounds kept; the encoder's own choices. */
class HpackStrictnessTest {

    @Test
    void huffmanRoundTripsEveryOctet() throws Exception {
        Random random = new Random(7541);
        for (int n = 0; n < 200; n++) {
            byte[] s = new byte[random.nextInt(40)];
            random.nextBytes(s);
            byte[] coded = Huffman.encode(s);
            assertEquals(Huffman.encodedLength(s), coded.length);
            assertArrayEquals(s, Huffman.decode(coded, 0, coded.length));
        }
    }

    @Test
    void huffmanPaddingMustBeAtMostSevenOnes() throws Exception {
        assertEquals("a", new String(Huffman.decode(new byte[] {0x1f}, 0, 1)), "'a' is 00011, then 111");
        assertThrows(HpackException.class, () -> Huffman.decode(new byte[] {0x18}, 0, 1), "padded with zeros");
        assertThrows(HpackException.class, () -> Huffman.decode(new byte[] {0x1f, (byte) 0xff}, 0, 2), "11 bits of padding");
        byte[] eos = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertThrows(HpackException.class, () -> Huffman.decode(eos, 0, 4), "EOS in the string");
    }

    @Test
    void malformedBlocksAreCompressionErrors() {
        refused("80", "index 0");
        refused("be", "index 62 with an empty dynamic table");
        refused("ff80808080808080", "an integer that never ends within the block");
        refused("ffffffffff0f", "an integer past 2^31 - 1");
        refused("8220", "a size update after a field");
        refused("000161056162", "a value longer than what is left");
        refused("40", "a literal cut off before its name");
        refused("00016181ff", "a Huffman value with 8 bits of padding");
    }

    @Test
    void aSizeUpdateAboveTheLimitIsRefusedAndOneWithinItEvicts() throws Exception {
        ByteArrayOutputStream over = new ByteArrayOutputStream();
        HpackEncoder.writeInt(over, 0x20, 5, 4097);
        refused(HexFormat.of().formatHex(over.toByteArray()), "above the 4,096 allowed");

        HpackDecoder decoder = new HpackDecoder(4096, 16_384);
        byte[] add = HexFormat.of().parseHex("400a637573746f6d2d6b65790c637573746f6d2d76616c7565");   // custom-key: custom-value, indexed
        decoder.decode(add, 0, add.length);
        assertEquals(1, decoder.tableLength());
        byte[] shrink = HexFormat.of().parseHex("20be");   // size 0, then index 62: gone
        assertThrows(HpackException.class, () -> decoder.decode(shrink, 0, shrink.length));
        assertEquals(0, decoder.tableLength());
    }

    @Test
    void aBlockPastTheListSizeIsReadToItsEndSoTheTableStaysInStep() throws Exception {
        HpackEncoder encoder = new HpackEncoder(4096, true, HpackEncoder.Indexing.ALL);
        HpackDecoder decoder = new HpackDecoder(4096, 100);
        List<HeaderField> big = List.of(new HeaderField("x-one", "1".repeat(30)), new HeaderField("x-two", "2".repeat(30)),
                new HeaderField("x-three", "3".repeat(30)));
        byte[] first = encoder.encode(big);
        HpackDecoder.Block block = decoder.decode(first, 0, first.length);
        assertTrue(block.tooLarge());
        assertEquals(List.of(big.get(0)), block.fields(), "what fit (67 of 100 octets), and nothing after the limit");
        assertEquals(3, decoder.tableLength(), "every literal still went into the table");
        byte[] again = encoder.encode(List.of(big.get(2)));
        assertEquals(1, again.length, "the encoder sends it as an index now");
        assertEquals(List.of(big.get(2)), decoder.decode(again, 0, again.length).fields());
    }

    @Test
    void aSensitiveFieldIsNeverIndexedAndComesOutSensitive() throws Exception {
        HpackEncoder encoder = new HpackEncoder(4096, false, HpackEncoder.Indexing.ALL);
        HeaderField secret = new HeaderField("authorization", "Bearer x", true);
        byte[] wire = encoder.encode(List.of(secret));
        assertEquals(0x10 | 0x0f, wire[0] & 0xff, "never indexed, name index 23 past the 4-bit prefix");
        byte[] again = encoder.encode(List.of(secret));
        assertArrayEquals(wire, again, "not in the table: sent whole again");
        HpackDecoder.Block block = new HpackDecoder(4096, 16_384).decode(wire, 0, wire.length);
        assertEquals(List.of(secret), block.fields());
    }

    @Test
    void thePeersSmallerTableIsAnnouncedAtTheNextBlocksStart() throws Exception {
        HpackEncoder encoder = new HpackEncoder(4096, false, HpackEncoder.Indexing.ALL);
        HpackDecoder decoder = new HpackDecoder(4096, 16_384);
        byte[] first = encoder.encode(List.of(new HeaderField("x-a", "1")));
        decoder.decode(first, 0, first.length);
        encoder.peerMaxTableSize(0);
        encoder.peerMaxTableSize(64);
        byte[] second = encoder.encode(List.of(new HeaderField("x-a", "1")));
        assertEquals("20", HexFormat.of().formatHex(second, 0, 1), "first the smallest size it went through");
        assertEquals(0x3f, second[1] & 0xff, "then 64, past the 5-bit prefix");
        decoder.decode(second, 0, second.length);
        assertEquals(1, decoder.tableLength(), "emptied by the 0, then the literal added again");
    }

    @Test
    void anEntryLargerThanTheTableEmptiesIt() {
        DynamicTable table = new DynamicTable(100);
        table.add(new HeaderField("a", "b"));
        table.add(new HeaderField("big", "v".repeat(100)));
        assertEquals(0, table.length());
        assertEquals(0, table.size());
    }

    private static void refused(String hex, String why) {
        byte[] wire = HexFormat.of().parseHex(hex);
        assertThrows(HpackException.class, () -> new HpackDecoder(4096, 16_384).decode(wire, 0, wire.length), why);
    }
}
