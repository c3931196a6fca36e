package io.loomgate.core.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A trace context: the client's kept when valid, else a new one whose ids are well formed and not repeated. */
class TraceParentTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidHeaderIsKept() {
        TraceParent t = TraceParent.fromHeader(VALID);
        assertEquals(VALID, t.header());
    }

    @Test
    void anInvalidOrMissingHeaderStartsANewSampledTraceWithWellFormedIds() {
        for (String header : new String[] {null, "", "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01", VALID.toUpperCase()}) {
            TraceParent t = TraceParent.fromHeader(header);
            assertTrue(t.traceId().matches("[0-9a-f]{32}"), t.traceId());
            assertTrue(t.parentId().matches("[0-9a-f]{16}"), t.parentId());
            assertEquals("01", t.flags());
            assertTrue(TraceParent.fromHeader(t.header()).header().equals(t.header()), "its own header reads back as itself");
        }
    }

    @Test
    void eachChildKeepsTheTraceAndGetsAParentIdOfItsOwn() {
        TraceParent client = TraceParent.fromHeader(VALID);
        Set<String> parents = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            TraceParent child = client.child();
            assertEquals(client.traceId(), child.traceId());
            assertEquals(client.flags(), child.flags());
            assertTrue(child.parentId().matches("[0-9a-f]{16}"), child.parentId());
            parents.add(child.parentId());
        }
        assertEquals(1000, parents.size(), "64 random bits a parent id: no repeat in a thousand");
        assertNotEquals(client.parentId(), client.child().parentId());
        Set<String> traces = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            traces.add(TraceParent.fromHeader(null).traceId());
        }
        assertEquals(1000, traces.size());
    }

    @Test
    void partsAreCheckedWhenGivenAndAContextIsAValue() {
        TraceParent t = TraceParent.of("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "01");
        assertEquals(VALID, t.header());
        assertEquals(TraceParent.fromHeader(VALID), t);
        assertEquals(TraceParent.fromHeader(VALID).hashCode(), t.hashCode());
        assertNotEquals(t, t.child());
        for (String[] bad : new String[][] {
                {"0".repeat(32), "00f067aa0ba902b7", "01"},
                {"4bf92f3577b34da6a3ce929d0e0e4736", "0".repeat(16), "01"},
                {"4BF92F3577B34DA6A3CE929D0E0E4736", "00f067aa0ba902b7", "01"},
                {"4bf92f3577b34da6a3ce929d0e0e473", "00f067aa0ba902b7", "01"},
                {"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "1"},
                {null, "00f067aa0ba902b7", "01"}}) {
            assertThrows(IllegalArgumentException.class, () -> TraceParent.of(bad[0], bad[1], bad[2]), String.join("-", bad[0] == null ? "null" : bad[0], bad[1], bad[2]));
        }
    }
}
