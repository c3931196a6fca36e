package io.loomgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTargetTest {

    private static HttpError refused(String target) {
        return assertThrows(HttpError.class, () -> RequestTarget.of(new URI(target)));
    }

    @Test
    void decodesPathAndQuery() throws Exception {
        RequestTarget t = RequestTarget.of(new URI("/a%20b?delay=db:3s&delay=cache%3A20ms&x=%E2%9C%93&flag"));
        assertEquals("/a b", t.path());
        assertEquals(List.of("db:3s", "cache:20ms"), t.query().all("delay"));
        assertEquals("\u2713", t.query().first("x").orElseThrow());
        assertEquals("", t.query().first("flag").orElseThrow());
    }

    @Test
    void acceptsAbsoluteFormAndUsesItsPath() throws Exception {
        assertEquals("/health", RequestTarget.of(new URI("http://example.com/health")).path());
        assertEquals("/", RequestTarget.of(new URI("http://example.com")).path());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "/a/../health,bad_path",
        "/./health,bad_path",
        "/%2e%2e/health,bad_path",
        "/%2E/health,bad_path",
        "//health,bad_path",
        "/a//b,bad_path",
        "/health;jsessionid=1,bad_path",
        "/a%2fb,bad_path",
        "/a%5cb,bad_path",
        "/a%00b,bad_path",
        "/a%0ab,bad_path",
        "/health#frag,bad_path",
        "/a%C0%AEb,bad_encoding",
        "/a%FFb,bad_encoding",
        "/caf\u00e9,bad_encoding",
        "/q?x=%C0%AE,bad_encoding",
        "/q?x=caf\u00e9,bad_encoding",
    })
    void refusesPathTricksAndBadEncodingWith400(String target, String code) {
        HttpError e = refused(target);
        assertEquals(400, e.status());
        assertEquals(code, e.code());
    }

    @Test
    void refusesVeryLongTargetsWith414() {
        HttpError e = refused("/block?x=" + "a".repeat(RequestTarget.MAX_LENGTH));
        assertEquals(414, e.status());
        assertEquals("uri_too_long", e.code());
    }

    @Test
    void refusesTooManyParameters() {
        StringBuilder q = new StringBuilder("/block?");
        for (int i = 0; i <= QueryParams.MAX_PARAMETERS; i++) {
            q.append("p").append(i).append("=1&");
        }
        HttpError e = refused(q.toString());
        assertEquals("too_many_parameters", e.code());
    }
}
