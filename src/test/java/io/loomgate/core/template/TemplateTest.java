package io.loomgate.core.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Templates on their own: how they are read, and how each value is encoded for where it goes. */
class TemplateTest {

    private static Template.Values all(Object value) {
        return p -> value;
    }

    @Test
    void placeholdersAreReadWithTheirFieldsAndDoubledBracesAreLiteral() throws Exception {
        Template t = Template.parse("/teams/{user.team.id}?q={query.q}&raw={{x}}");
        assertEquals(List.of(new Placeholder("user", List.of("team", "id")), new Placeholder("query", List.of("q"))),
                t.placeholders());
        assertFalse(t.isOnePlaceholder());
        assertTrue(Template.parse("{user}").isOnePlaceholder());
        assertEquals("/teams/7?q=7&raw={x}", t.url(all(7)));
        assertEquals("has a '{' that is never closed (write {{ for a literal brace)",
                assertThrows(IllegalArgumentException.class, () -> Template.parse("/a/{id")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Template.parse("/a/}"));
        assertThrows(IllegalArgumentException.class, () -> Template.parse("/a/{}"));
        assertThrows(IllegalArgumentException.class, () -> Template.parse("/a/{a..b}"));
        assertThrows(IllegalArgumentException.class, () -> Template.parse("/a/{a b}"));
    }

    @Test
    void aPathSegmentValueStaysOneSegment() throws Exception {
        Template t = Template.parse("/teams/{id}/members");
        assertEquals("/teams/..%2Fadmin/members", t.url(all("../admin")));
        assertEquals("/teams/a%2Fb%3Fc%23d%25/members", t.url(all("a/b?c#d%")));
        assertEquals("/teams/%C3%A9%20x/members", t.url(all("é x")));
        assertEquals("/teams/.../members", t.url(all("...")), "three dots are a name, not a dot segment");
        for (String unsafe : List.of(".", "..", "")) {
            UnsafeValue e = assertThrows(UnsafeValue.class, () -> t.url(all(unsafe)));
            assertEquals("id", e.placeholder().head());
        }
        assertEquals("{id} cannot be a path segment: '..'", assertThrows(UnsafeValue.class, () -> t.url(all(".."))).getMessage());
        assertThrows(UnsafeValue.class, () -> t.url(all(null)), "a missing value is empty");
    }

    @Test
    void afterTheQuestionMarkAValueIsOneQueryComponent() throws Exception {
        Template t = Template.parse("/search?q={q}&page=2");
        assertEquals("/search?q=a%26page%3D9%23x&page=2", t.url(all("a&page=9#x")));
        assertEquals("/search?q=&page=2", t.url(all("")), "an empty query value is fine");
        assertEquals("/search?q=..&page=2", t.url(all("..")));
    }

    @Test
    void aHeaderValueMayHoldNoControlCharacter() throws Exception {
        Template t = Template.parse("Bearer {token}");
        assertEquals("Bearer a\tb ok", t.render(all("a\tb ok"), Template.Encoding.HEADER_VALUE));
        assertEquals("Bearer \u00c3\u00a9", t.render(all("\u00e9"), Template.Encoding.HEADER_VALUE),
                "text beyond ASCII goes as its UTF-8 bytes, one char per byte on the wire");
        for (String unsafe : List.of("a\r\nX-Evil: 1", "a\nb", "a\u0000", "a\u007f")) {
            assertThrows(UnsafeValue.class, () -> t.render(all(unsafe), Template.Encoding.HEADER_VALUE), unsafe);
        }
    }

    @Test
    void aLonePlaceholderKeepsItsJsonTypeAndTextAroundOneMakesText() throws Exception {
        Map<String, Object> team = Map.of("id", 3L);
        assertEquals(team, Template.parse("{team}").value(all(team)));
        assertEquals(42L, Template.parse("{n}").value(all(42L)));
        assertEquals("team {\"id\":3}", Template.parse("team {team}").value(all(team)));
        assertEquals("n=42, ok=true, none=", Template.parse("n={n}, ok={b}, none={x}").value(p -> switch (p.head()) {
            case "n" -> 42L;
            case "b" -> true;
            default -> null;
        }));
    }

    @Test
    void fieldsFollowObjectsAndArrayIndexes() {
        Object answer = Map.of("items", List.of(Map.of("sku", "a"), Map.of("sku", "b")), "n", 1L);
        assertEquals("b", Template.field(answer, List.of("items", "1", "sku")));
        assertEquals(answer, Template.field(answer, List.of()));
        assertNull(Template.field(answer, List.of("items", "2", "sku")));
        assertNull(Template.field(answer, List.of("n", "x")));
        assertNull(Template.field(answer, List.of("missing")));
        assertNull(Template.field(answer, List.of("items", "99999999999")));
    }
}
