package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The compose scenario's targets, computed from runs made up here. */
class ComposeReportTest {

    private static RunResult run(String route, int c, long requests, double p50Ms, long statusErrors) {
        return new RunResult(route, "gateway", c, requests, 10.0,
                Map.of("connect", 0L, "read", 0L, "write", 0L, "status", statusErrors, "timeout", 0L),
                Map.of("p50", p50Ms * 1000, "p99", p50Ms * 1500), 0);
    }

    private static Map<String, Object> cpu(long gatewayMs) {
        return Map.of("gatewayCpuMs", gatewayMs, "backendCpuMs", 1000L);
    }

    @Test
    void theTargetsAreAgainstTheDesignedCriticalPath() {
        ComposeReport r = ComposeReport.of(
                List.of(run("/critical-path/7", 1, 80, 125.0, 0), run("/critical-path/7", 500, 40_000, 130.0, 0),
                        run("/critical-path/7", 1000, 80_000, 140.0, 0), run("/aggregate", 500, 16_000, 305.0, 0)),
                List.of(cpu(10), cpu(8_000), cpu(16_000), cpu(4_000)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.of(true), t.get(0).met(), "125 ms is within 10 ms of 120");
        assertEquals(Optional.of(true), t.get(1).met(), "130 ms is within 15%");
        assertEquals(Optional.of(true), t.get(2).met(), "8,000/s is 0.96 of 8,333/s");
        assertEquals("8000/s, 0.96 of the bound, errors 0", t.get(2).measured());
        assertEquals("200 µs per composed request (3 upstream calls) against 250 µs per HTTP /aggregate (2), 67 and 125 µs"
                + " per upstream call", t.get(3).measured());
        assertEquals(Optional.empty(), t.get(3).met(), "the cost is reported, not judged");
        assertTrue(r.table().contains("| `/critical-path/7` | critical path (120 ms) | 1 | 8 | 0.96 | 125.0 | 187.5 | too few to say |"),
                r.table());
    }

    @Test
    void aSlowOrFailingRunMissesAndAMissingOneIsNotMeasured() {
        ComposeReport r = ComposeReport.of(
                List.of(run("/critical-path/7", 1, 70, 131.0, 0), run("/critical-path/7", 1000, 80_000, 130.0, 5)),
                List.of(cpu(10), cpu(16_000)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.of(false), t.get(0).met(), "131 ms is 11 ms over");
        assertEquals("not measured in this run", t.get(1).measured());
        assertEquals(Optional.of(false), t.get(2).met(), "five non-2xx answers are errors");
        assertEquals("not measured in this run", t.get(3).measured());
    }
}
