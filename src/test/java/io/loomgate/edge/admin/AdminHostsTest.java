package io.loomgate.edge.admin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code Host} values the admin listener answers, without sockets. */
class AdminHostsTest {

    @Test
    void loopbackBindAcceptsLoopbackNamesWithItsPortOnly() {
        AdminHosts h = AdminHosts.of("127.0.0.1", 9091, List.of());
        for (String ok : List.of("localhost:9091", "LOCALHOST:9091", "127.0.0.1:9091", "127.1.2.3:9091", "[::1]:9091")) {
            assertTrue(h.accepts(ok), ok);
        }
        for (String bad : List.of("evil.example:9091", "evil.example", "localhost", "localhost:9092", "localhost.:9091",
                "10.0.0.1:9091", "127.0.0.1:09091x", "localhost:", "", "[::2]:9091", "127.0.0.256:9091", "localhost:99999")) {
            assertFalse(h.accepts(bad), bad);
        }
        assertFalse(h.accepts(null));
    }

    @Test
    void namesAreAddedWithTheListenersPortOrTheirOwn() {
        AdminHosts h = AdminHosts.of("127.0.0.1", 9091, List.of("admin.internal", "ops.example:19091"));
        assertTrue(h.accepts("admin.internal:9091"));
        assertTrue(h.accepts("ops.example:19091"), "a port mapped elsewhere, as written");
        assertFalse(h.accepts("ops.example:9091"));
        assertFalse(h.accepts("admin.internal:1"));
    }

    @Test
    void aWildcardBindAcceptsAnyAddressButNoUnlistedName() {
        AdminHosts h = AdminHosts.of("0.0.0.0", 9091, List.of());
        assertTrue(h.accepts("10.1.2.3:9091"), "a probe or a scrape by the pod's address");
        assertTrue(h.accepts("[fd00::1]:9091"));
        assertFalse(h.accepts("pod.cluster.local:9091"), "a name must be listed");
        assertFalse(h.accepts("10.1.2.3:80"));
        AdminHosts named = AdminHosts.of("admin.internal", 9091, List.of());
        assertTrue(named.accepts("admin.internal:9091"), "the bind name itself");
        assertFalse(named.accepts("10.1.2.3:9091"));
    }
}
