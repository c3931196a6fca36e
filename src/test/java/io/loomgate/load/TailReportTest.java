package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tail scenario's targets and chart, computed from runs made up here. */
class TailReportTest {

    private static RunResult run(String route, double p99Ms) {
        return new RunResult(route, "gateway", 20, 20_000, 20.0,
                Map.of("connect", 0L, "read", 0L, "write", 0L, "status", 0L, "timeout", 0L),
                Map.of("p50", 12_000.0, "p99", p99Ms * 1000, "p999", 1_000_000.0), 0);
    }

    private static Map<String, Object> counts(long answered, long upstream) {
        return Map.of("gatewayRequests", answered, "upstreamRequests", upstream);
    }

    @Test
    void theTargetsCompareTheAdaptiveHedgeWithNoHedgeAndWithTwoCopies() {
        TailReport r = TailReport.of(
                List.of(run("/tail/none", 990), run("/tail/fixed", 30), run("/tail/adaptive", 25), run("/tail/twice", 20)),
                Map.of("/tail/none", counts(10_000, 10_000), "/tail/fixed", counts(10_000, 10_200),
                        "/tail/adaptive", counts(10_000, 10_400), "/tail/twice", counts(10_000, 20_000)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.of(true), t.get(0).met(), t.get(0).measured());
        assertEquals("p99 990.0 ms -> 25.0 ms (39.6x)", t.get(0).measured());
        assertEquals("4.00%", t.get(1).measured());
        assertEquals(Optional.of(true), t.get(1).met());
        assertEquals(Optional.of(true), t.get(2).met(), "25 ms is within 1.5x of 20 ms");
        assertEquals(Optional.of(true), t.get(3).met(), "4% is at most 100% / 20");
        assertTrue(r.table().contains("| `/tail/twice` | two copies at once | 1000 | 12.0 | 20.0 | 1000.0 | 100.0% (20,000 for 10,000) | 0 |"),
                r.table());
        assertTrue(r.svg().contains("+100.0%") && r.svg().contains("p99 25.0 ms"), r.svg());
    }

    @Test
    void aMissedTargetSaysSoAndAMissingRouteIsNotMeasured() {
        TailReport r = TailReport.of(List.of(run("/tail/none", 990), run("/tail/adaptive", 200)),
                Map.of("/tail/none", counts(100, 100), "/tail/adaptive", counts(100, 108)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.of(false), t.get(0).met(), "990 / 200 is under 10x");
        assertEquals(Optional.of(false), t.get(1).met(), "8% extra");
        assertEquals(Optional.empty(), t.get(2).met());
        assertEquals("not measured in this run", t.get(2).measured());
    }
}
