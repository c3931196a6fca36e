package io.loomgate.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void placesCommasAcrossNesting() {
        String json = new JsonWriter().beginObject()
                .field("a", 1)
                .name("list").beginArray().value("x").beginObject().field("b", true).endObject().nullValue().endArray()
                .name("empty").beginObject().endObject()
                .field("c", "d")
                .endObject().toString();
        assertEquals("{\"a\":1,\"list\":[\"x\",{\"b\":true},null],\"empty\":{},\"c\":\"d\"}", json);
    }

    @Test
    void escapesEverythingJsonRequires() {
        String nasty = "q\"b\\s/\n\r\t\u0000\u001f\u007f\u2028é✓";
        String json = new JsonWriter().beginObject().field(nasty, nasty).endObject().toString();
        assertEquals(Map.of(nasty, nasty), JsonParser.parse(json));
        assertEquals(-1, json.indexOf('\n'));
        assertEquals(-1, json.indexOf('\u0000'));
    }

    @Test
    void writesDoublesWithOneDecimal() {
        String json = new JsonWriter().beginArray().value(300.44).value(300.45).value(2.0).value(-0.04)
                .value(-1.26).value(Double.NaN).value(Double.POSITIVE_INFINITY).endArray().toString();
        assertEquals("[300.4,300.5,2,0,-1.3,null,null]", json);
    }

    @Test
    void writesPreciseDoublesWhenAsked() {
        assertEquals("[0.123456]", new JsonWriter().beginArray().preciseValue(0.123456).endArray().toString());
    }

    @Test
    void roundTripsThroughTheParser() {
        String json = new JsonWriter().beginObject().field("n", Long.MIN_VALUE).field("s", "")
                .name("l").beginArray().value(false).endArray().endObject().toString();
        assertEquals(Map.of("n", Long.MIN_VALUE, "s", "", "l", List.of(false)), JsonParser.parse(json));
    }

    @Test
    void refusesToCloseWhatIsNotOpen() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter().endObject());
    }
}
