package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --max-connections auto}: a quarter of the heap at the worst measured cost of one connection, on each server. */
class ConnectionBudgetTest {

    private static final long MB = 1024 * 1024;
    private static final long NO_DESCRIPTOR_LIMIT = Long.MAX_VALUE;

    @Test
    void aHalfGigabyteHeapHoldsWhatEachServersWorstConnectionLeaves() {
        assertEquals(10_922, ConnectionBudget.of(512 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.LOOMGATE, false), "issue #44: at least 10,000");
        assertEquals(3_120, ConnectionBudget.of(512 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.LOOMGATE, true));
        assertEquals(5_295, ConnectionBudget.of(512 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.JDK, false));
        assertEquals(1_285, ConnectionBudget.of(512 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.JDK, true));
        assertEquals(5_461, ConnectionBudget.of(256 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.LOOMGATE, false), "scripts/run's heap");
    }

    /** The prices cover what scripts/load --scenario connections measured (load/results/connections-latest). */
    @Test
    void eachPriceIsAtLeastTheWorstMeasured() {
        assertTrue(ConnectionBudget.price(ServerKind.LOOMGATE, false) >= 14.6 * 1024, "idle keep-alive before it let its exchange go, 14.6 KB");
        assertTrue(ConnectionBudget.price(ServerKind.LOOMGATE, true) >= 51.8 * 1024, "a whole ClientHello, 51.8 KB");
        assertTrue(ConnectionBudget.price(ServerKind.JDK, false) >= 32.2 * 1024, "a stalled head, 32.2 KB");
        assertTrue(ConnectionBudget.price(ServerKind.JDK, true) >= 128.7 * 1024, "a whole ClientHello, up to 128.7 KB");
    }

    @Test
    void theDescriptorLimitAndTheFloorBoundIt() {
        assertEquals(4_096 - 1_024, ConnectionBudget.of(512 * MB, 4_096, ServerKind.LOOMGATE, false));
        assertEquals(256, ConnectionBudget.of(8 * MB, NO_DESCRIPTOR_LIMIT, ServerKind.JDK, true), "at least 256");
    }

    @Test
    void aTunnelTakesThePlacesItsCostIsWorth() {
        assertEquals(4, ConnectionBudget.TUNNEL_EXTRA, "70 KB over a 16 KB place: four more");
    }
}
