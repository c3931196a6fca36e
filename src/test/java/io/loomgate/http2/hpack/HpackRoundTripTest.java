package io.loomgate.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Many blocks through one encoder and one decoder, as a connection's answers go: fields that
 * repeat, fields new each time that evict the oldest entries, a name in the table with a new value.
 * Every block decodes to what was encoded, so the encoder's look-ups name the entries the decoder has.
 */
class HpackRoundTripTest {

    @Test
    void aThousandAnswersDecodeAsEncodedWhileTheTableEvicts() throws Exception {
        HpackEncoder encoder = new HpackEncoder(4_096, true);
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
        assertTrue(indexedBytes < 40, "repeated fields go as indices, not literals: " + indexedBytes + " octets");
    }
}
