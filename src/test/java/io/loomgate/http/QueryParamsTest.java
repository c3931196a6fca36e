package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryParamsTest {

    @Test
    void keepsRepeatedKeysInOrder() {
        QueryParams q = QueryParams.parse("fail=db&delay=db:3s&fail=file,cache");
        assertEquals(List.of("db", "file,cache"), q.all("fail"));
        assertEquals("db", q.first("fail").orElseThrow());
        assertEquals(Set.of("fail", "delay"), q.names());
    }

    @Test
    void handlesEmptyPiecesPlusAndMissingValues() {
        QueryParams q = QueryParams.parse("&&a=1+2&&b&=x");
        assertEquals("1 2", q.first("a").orElseThrow());
        assertEquals("", q.first("b").orElseThrow());
        assertEquals("x", q.first("").orElseThrow());
        assertTrue(q.all("missing").isEmpty());
        assertTrue(QueryParams.parse(null).names().isEmpty());
    }

    @Test
    void aPercentMustHaveTwoHexDigits() {
        assertEquals("bad_encoding", assertThrows(HttpError.class, () -> QueryParams.parse("a=%4")).code());
        assertEquals("bad_encoding", assertThrows(HttpError.class, () -> QueryParams.parse("a=%zz")).code());
    }

    @Test
    void exactlyTheLimitIsAccepted() {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < QueryParams.MAX_PARAMETERS; i++) {
            q.append("k=").append(i).append('&');
        }
        assertEquals(QueryParams.MAX_PARAMETERS, QueryParams.parse(q.toString()).all("k").size());
    }
}
