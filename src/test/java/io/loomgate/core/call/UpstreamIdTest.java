package io.loomgate.core.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.Test;

class UpstreamIdTest {

    @Test
    void idsAreEqualAndHashAlikeByTheirNameAlone() {
        assertEquals(UpstreamId.of("cache-1"), new UpstreamId(new String("cache-1")));
        assertEquals("cache-1".hashCode(), UpstreamId.of("cache-1").hashCode());
        assertNotEquals(UpstreamId.of("cache-1"), UpstreamId.of("cache-2"));
        assertNotEquals(UpstreamId.of("db"), "db");
        assertEquals(2, Set.of(UpstreamId.of("db"), UpstreamId.of("file")).size());
        assertEquals("db", UpstreamId.of("db").toString());
    }

    @Test
    void anIdThatBreaksTheRulesIsRefusedSayingThem() {
        assertEquals("a service id must be 1 to 40 lower-case letters, digits and '-', got 'DB'",
                assertThrows(IllegalArgumentException.class, () -> UpstreamId.of("DB")).getMessage());
    }
}
