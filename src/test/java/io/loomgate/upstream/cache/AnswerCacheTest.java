package io.loomgate.upstream.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The store: variants by Vary, the byte bound, least recently used out first, purging. */
class AnswerCacheTest {

    private static StoredAnswer answer(int bodyBytes, List<String> varyValues, String... fields) {
        return new StoredAnswer(200, Headers.of(fields), new byte[bodyBytes], 0, 0, varyValues);
    }

    @Test
    void eachVariantIsFoundByTheValuesOfTheFieldsItVariesOn() {
        AnswerCache c = new AnswerCache(1 << 20);
        c.put("GET /a", answer(10, List.of("en"), "Vary", "Accept-Language"));
        c.put("GET /a", answer(20, List.of("fr"), "Vary", "accept-language"));
        assertEquals(10, c.get("GET /a", n -> Map.of("accept-language", "en").get(n)).orElseThrow().body().length);
        assertEquals(20, c.get("GET /a", n -> Map.of("accept-language", "fr").get(n)).orElseThrow().body().length);
        assertEquals(Optional.empty(), c.get("GET /a", n -> Map.of("accept-language", "de").get(n)));
        assertEquals(Optional.empty(), c.get("GET /b", n -> null));
        assertEquals(2, c.purge("GET /a"));
        assertEquals(0, c.size());
        assertEquals(0, c.bytes());
    }

    @Test
    void anAnswerOverATenthOfTheBoundIsNeverStored() {
        AnswerCache c = new AnswerCache(100_000);
        assertFalse(c.put("GET /big", answer(10_000, List.of())));
        assertTrue(c.put("GET /small", answer(9_000, List.of())));
        assertEquals(1, c.size());
    }

    @Test
    void aFloodOfDistinctKeysNeverHoldsMoreThanTheBoundAndTheLeastRecentlyUsedGoFirst() {
        AnswerCache c = new AnswerCache(64 * 1024);
        c.put("GET /keep", answer(1_000, List.of()));
        for (int i = 0; i < 20_000; i++) {
            c.put("GET /item/" + i, answer(500, List.of()));
            if (i % 10 == 0) {
                c.get("GET /keep", n -> null);   // used now and then: never the least recently used
            }
            assertTrue(c.bytes() <= 64 * 1024, "held " + c.bytes());
        }
        assertTrue(c.get("GET /keep", n -> null).isPresent());
        assertTrue(c.get("GET /item/0", n -> null).isEmpty(), "the oldest went first");
        assertTrue(c.get("GET /item/19999", n -> null).isPresent());
        assertTrue(c.evictions() > 19_000);
    }

    @Test
    void purgingAKeyTakesEveryCallersAnswersForIt() {
        AnswerCache c = new AnswerCache(1 << 20);
        c.put("GET /me\u0001alice", answer(1, List.of()));
        c.put("GET /me\u0001bob", answer(1, List.of()));
        c.put("GET /men", answer(1, List.of()));
        assertEquals(2, c.purge("GET /me"));
        assertEquals(1, c.size());
        assertEquals(1, c.purgeAll());
    }
}
