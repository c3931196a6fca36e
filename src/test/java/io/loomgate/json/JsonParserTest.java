package io.loomgate.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonParserTest {

    @Test
    void parsesEveryKindOfValue() {
        Object v = JsonParser.parse(" {\"a\": [1, -2.5e1, 0.5, true, false, null, \"x\\u0041\\n\"], \"b\": {}} ");
        assertEquals(Map.of("a", Arrays.asList(1L, -25.0, 0.5, true, false, null, "xA\n"), "b", Map.of()), v);
    }

    @Test
    void keepsMemberOrder() {
        assertEquals(List.of("z", "a", "m"), List.copyOf(JsonParser.parseObject("{\"z\":1,\"a\":2,\"m\":3}").keySet()));
    }

    @Test
    void readsNull() {
        assertNull(JsonParser.parse("null"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\":1,}", "[1,]", "01", "1.", "-", "\"\t\"", "{\"a\":1}x", "{a:1}",
            "'x'", "[1 2]", "{\"a\":1,\"a\":2}", "tru", "\"\\x\"", "\"\\u12\""})
    void refusesWhatIsNotStrictJson(String text) {
        assertThrows(IllegalArgumentException.class, () -> JsonParser.parse(text));
    }

    @Test
    void refusesDeepNesting() {
        assertThrows(IllegalArgumentException.class, () -> JsonParser.parse("[".repeat(300) + "]".repeat(300)));
    }
}
