package io.loomgate.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many blocks through one encoder and one decoder, as a connection's answers go: fields that
 * repeat, fields new each time that evict the oldest entries, a name in the table with a new value.
 * Every block decodes to what was encoded, so the encoder's look-ups name the entries the decoder has.
 */
class HpackRoundTripTest {

    @ParameterizedTest
    @EnumSource(HpackEncoder.Indexing.class)
    void aThousandAnswersDecodeAsEncodedWhileTheTableEvicts(HpackEncoder.Indexing indexing) throws Exception {
        HpackEncoder encoder = new HpackEncoder(4_096, true, indexing);
        HpackDecoder decoder = new HpackDecoder(4_096, 1 << 20);
        int indexedBytes = 0;
        for (int i = 0; i < 1_000; i++) {
            List<HeaderField> fields = List.of(new HeaderField(":status", "200"),
                    new HeaderField("content-type", "application/json"),
                    new HeaderField("x-request-id", "c0ffee-" + i),
                    new HeaderField("server-timing", "db;dur=" + (i % 7) + ".5"),
                    new HeaderField("x-custom", "same every time"),
                    new HeaderField("content-length", String.valueOf(i % 3)));
            byte[] block = encoder.encode(fields);
            assertEquals(fields, decoder.decode(block, 0, block.length).fields(), "block " + i);
            if (i == 999) {
                indexedBytes = block.length;
            }
        }
        assertTrue(indexedBytes < (indexing == HpackEncoder.Indexing.ALL ? 40 : 60),
                "repeated fields go as indices, not literals: " + indexedBytes + " octets");
    }

    @Test
    void fieldsNewInEveryMessageGoWithoutIndexingAndEvictNothing() throws Exception {
        HpackEncoder encoder = new HpackEncoder(4_096, false, HpackEncoder.Indexing.REUSED_ONLY);
        HpackDecoder decoder = new HpackDecoder(4_096, 1 << 20);
        List<HeaderField> custom = List.of(new HeaderField("x-custom", "same every time"));
        assertEquals(0x40, first(encoder, decoder, custom), "a new field the next message may use is indexed");
        for (int i = 0; i < 200; i++) {
            for (String name : List.of("x-request-id", "traceparent", "server-timing", "location", "set-cookie", ":path")) {
                // 0000xxxx: a literal without indexing (RFC 7541 section 6.2.2), the name new or by its static index
                assertEquals(0x00, first(encoder, decoder, List.of(new HeaderField(name, "v" + i))) & 0xf0, name + " goes without indexing");
            }
            assertEquals(0x0f, first(encoder, decoder, List.of(new HeaderField("content-length", String.valueOf(i)))),
                    "content-length without indexing, by its static name (index 28: 0x0f, then 13)");
        }
        assertEquals(0x80 | 62, first(encoder, decoder, custom), "the first entry is still the newest: nothing was added since");
        assertEquals(0x00, first(encoder, decoder, List.of(new HeaderField("x-large", "x".repeat(3_100)))),
                "a field over three quarters of the table is not indexed");
        assertEquals(0x80 | 62, first(encoder, decoder, custom));
    }

    /** Encodes {@code fields}, checks the decoder reads them back, and returns the block's first octet. */
    private static int first(HpackEncoder encoder, HpackDecoder decoder, List<HeaderField> fields) throws Exception {
        byte[] block = encoder.encode(fields);
        assertEquals(fields, decoder.decode(block, 0, block.length).fields());
        return block[0] & 0xff;
    }
}
