package io.loomgate.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RFC 7541 Appendix C, byte for byte: each example block decodes to its fields, the decoder's
 * table ends at the size the RFC gives, and the encoder, fed the same fields in the same order,
 * writes the same bytes (its choices are the examples' choices).
 */
class HpackExamplesTest {

    private static final List<HeaderField> REQUEST_1 = List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"),
            f(":authority", "www.example.com"));
    private static final List<HeaderField> REQUEST_2 = List.of(f(":method", "GET"), f(":scheme", "http"), f(":path", "/"),
            f(":authority", "www.example.com"), f("cache-control", "no-cache"));
    private static final List<HeaderField> REQUEST_3 = List.of(f(":method", "GET"), f(":scheme", "https"), f(":path", "/index.html"),
            f(":authority", "www.example.com"), f("custom-key", "custom-value"));

    private static final List<HeaderField> RESPONSE_1 = List.of(f(":status", "302"), f("cache-control", "private"),
            f("date", "Mon, 21 Oct 2013 20:13:21 GMT"), f("location", "https://www.example.com"));
    private static final List<HeaderField> RESPONSE_2 = List.of(f(":status", "307"), f("cache-control", "private"),
            f("date", "Mon, 21 Oct 2013 20:13:21 GMT"), f("location", "https://www.example.com"));
    private static final List<HeaderField> RESPONSE_3 = List.of(f(":status", "200"), f("cache-control", "private"),
            f("date", "Mon, 21 Oct 2013 20:13:22 GMT"), f("location", "https://www.example.com"), f("content-encoding", "gzip"),
            f("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"));

    @Test
    void c3RequestsWithoutHuffman() throws Exception {
        sequence(4096, false, List.of(REQUEST_1, REQUEST_2, REQUEST_3), List.of(
                "828684410f7777772e6578616d706c652e636f6d",
                "828684be58086e6f2d6361636865",
                "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"), List.of(57L, 110L, 164L));
    }

    @Test
    void c4RequestsWithHuffman() throws Exception {
        sequence(4096, true, List.of(REQUEST_1, REQUEST_2, REQUEST_3), List.of(
                "828684418cf1e3c2e5f23a6ba0ab90f4ff",
                "828684be5886a8eb10649cbf",
                "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"), List.of(57L, 110L, 164L));
    }

    @Test
    void c5ResponsesWithoutHuffmanEvictingFromA256OctetTable() throws Exception {
        sequence(256, false, List.of(RESPONSE_1, RESPONSE_2, RESPONSE_3), List.of(
                "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d54"
                        + "6e1768747470733a2f2f7777772e6578616d706c652e636f6d",
                "4803333037c1c0bf",
                "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d"
                        + "4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076"
                        + "657273696f6e3d31"), List.of(222L, 222L, 215L));
    }

    @Test
    void c6ResponsesWithHuffmanEvictingFromA256OctetTable() throws Exception {
        sequence(256, true, List.of(RESPONSE_1, RESPONSE_2, RESPONSE_3), List.of(
                "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3",
                "4883640effc1c0bf",
                "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"),
                List.of(222L, 222L, 215L));
    }

    /** Decodes each block and encodes each field list with one decoder and one encoder, as one connection does. */
    private static void sequence(long tableSize, boolean huffman, List<List<HeaderField>> blocks, List<String> hex,
                                 List<Long> tableSizes) throws Exception {
        HpackDecoder decoder = new HpackDecoder(tableSize, 16_384);
        HpackEncoder encoder = new HpackEncoder(tableSize, huffman, HpackEncoder.Indexing.ALL);
        for (int i = 0; i < blocks.size(); i++) {
            byte[] wire = HexFormat.of().parseHex(hex.get(i));
            HpackDecoder.Block block = decoder.decode(wire, 0, wire.length);
            assertFalse(block.tooLarge());
            assertEquals(blocks.get(i), block.fields(), "block " + (i + 1) + " decoded");
            assertEquals(tableSizes.get(i), decoder.tableSize(), "the table's size after block " + (i + 1));
            byte[] encoded = encoder.encode(blocks.get(i));
            assertEquals(hex.get(i), HexFormat.of().formatHex(encoded), "block " + (i + 1) + " encoded");
        }
    }

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }
}
