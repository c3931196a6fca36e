package io.loomgate.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.template.Template;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rewrite steps without sockets: header rules, the path rewrite and its bound, redirects, cookies. */
class RewriteRulesTest {

    @Test
    void headerRulesRemoveThenSetThenAdd() {
        HeaderRules rules = new HeaderRules(List.of("X-Drop"), Map.of("X-User", Template.parse("{header.X-Who}")),
                Map.of("X-Tag", Template.parse("a-{query.q}")));
        Template.Values values = p -> p.head().equals("header") ? "ada" : "1";
        Headers out = rules.apply(Headers.of("X-Drop", "x", "X-User", "old", "X-Tag", "first"), values);
        assertEquals(null, out.first("X-Drop"));
        assertEquals(List.of("ada"), out.all("X-User"));
        assertEquals(List.of("first", "a-1"), out.all("X-Tag"));
        HttpError refused = assertThrows(HttpError.class, () -> rules.apply(Headers.EMPTY, p -> "evil\r\nX-Injected: 1"));
        assertEquals(400, refused.status(), "a control character is refused per request, never sent");
    }

    @Test
    void aPathRewriteReplacesAndItsWorkIsBounded() {
        PathRewrite r = PathRewrite.of("^old/(.*)$", "new/$1");
        assertEquals("new/a/b", r.apply("old/a/b"));
        assertEquals("other/x", r.apply("other/x"), "no match: unchanged");
        assertThrows(IllegalArgumentException.class, () -> PathRewrite.of("^(a", "x"));
        assertThrows(IllegalArgumentException.class, () -> PathRewrite.of("^(a)$", "$2"), "a group it does not have");
        PathRewrite catastrophic = PathRewrite.of("^(.*a){12}$", "x");   // backtracks polynomially high: seconds unbounded
        HttpError stopped = assertThrows(HttpError.class, () -> catastrophic.apply("a".repeat(40) + "!"),
                "exponential backtracking is stopped by the step bound, not left to run");
        assertEquals(400, stopped.status());
        assertEquals(414, assertThrows(HttpError.class, () -> r.apply("a".repeat(PathRewrite.MAX_INPUT + 1))).status());
    }

    @Test
    void redirectsPointingAtTheUpstreamComeBackThroughTheGateway() {
        List<String> bases = Redirects.bases(List.of("http://127.0.0.1:21101/up/", "http://10.0.0.6:8080/up/{id}"));
        assertEquals(List.of("http://127.0.0.1:21101/up/", "http://10.0.0.6:8080/up/"), bases);
        String client = Redirects.clientBase("https", "api.example.com", "/p/");
        Headers out = Redirects.rewrite(Headers.of("Location", "http://127.0.0.1:21101/up/get?x=1",
                "Content-Location", "http://10.0.0.6:8080/up/a", "Refresh", "5; url=http://127.0.0.1:21101/up/b"), bases, client);
        assertEquals("https://api.example.com/p/get?x=1", out.first("Location"));
        assertEquals("https://api.example.com/p/a", out.first("Content-Location"));
        assertEquals("5; url=https://api.example.com/p/b", out.first("Refresh"));
        assertEquals("https://elsewhere.test/x", Redirects.rewrite(Headers.of("Location", "https://elsewhere.test/x"), bases, client)
                .first("Location"), "a redirect elsewhere is left alone");
        assertEquals("/p/", Redirects.clientBase("http", "evil\"host<script>", "/p/"), "a hostile Host is never echoed");
    }

    @Test
    void cookiesGetTheirPathAndDomainMapped() {
        Cookies c = new Cookies(Map.of("/up/", "/p/"), Map.of("backend.internal", "example.com"));
        Headers out = c.rewrite(Headers.of("Set-Cookie", "sid=1; Path=/up/x; Domain=.backend.internal; HttpOnly",
                "Set-Cookie", "t=2; Path=/other"));
        assertEquals(List.of("sid=1; Path=/p/x; Domain=example.com; HttpOnly", "t=2; Path=/other"), out.all("Set-Cookie"));
        assertTrue(Cookies.NONE.rewrite(Headers.of("Set-Cookie", "a=b")).contains("Set-Cookie"));
    }
}
