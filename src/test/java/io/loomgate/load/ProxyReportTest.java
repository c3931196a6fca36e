package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The proxy scenario's targets, computed from runs made up here. */
class ProxyReportTest {

    private static RunResult run(String mode, String endpoint, int c, long requests, double p99Ms, long readErrors) {
        return new RunResult(endpoint, mode, c, requests, 10.0,
                Map.of("connect", 0L, "read", readErrors, "write", 0L, "status", 0L, "timeout", 0L),
                Map.of("p50", 150_000.0, "p99", p99Ms * 1000), 100 * 1024);
    }

    @Test
    void targetsAreRatiosWithinTheRun() {
        ProxyReport r = ProxyReport.of(List.of(
                run("backend", "/api/data", 2000, 145_000, 280, 0),
                run("proxy-virtual", "/api/data", 2000, 100_000, 340, 0),
                run("proxy-platform", "/api/data", 2000, 16_500, 1960, 0),
                run("nginx", "/api/data", 2000, 110_000, 310, 0),
                run("http-aggregate", "/aggregate", 1000, 31_000, 400, 0)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.of(true), t.get(0).met(), t.get(0).measured());
        assertEquals("0.91x (10000 vs 11000 rps), 0 socket errors", t.get(0).measured());
        assertEquals(Optional.of(false), t.get(1).met(), "10000 / 1650 is 6.06x, below 9x");
        assertEquals(Optional.of(true), t.get(2).met(), "340 / 310 = 1.10x");
        assertEquals(Optional.of(true), t.get(3).met(), "3100 rps of a 3333 bound is 0.93");
        assertTrue(r.markdown().contains("| proxy-virtual | `/api/data` | 2000 | 10000 | 150.0 | 340.0 | 0 | 100 |"), r.markdown());
    }

    @Test
    void socketErrorsFailTheThroughputTargetAndMissingRowsAreNotRun() {
        ProxyReport r = ProxyReport.of(List.of(run("proxy-virtual", "/api/data", 2000, 100_000, 340, 12)), Map.of());
        List<LoadReport.Target> t = r.targets();
        assertEquals(Optional.empty(), t.get(0).met());
        assertTrue(t.get(0).measured().startsWith("not run"), t.get(0).measured());
        ProxyReport withNginx = ProxyReport.of(List.of(run("proxy-virtual", "/api/data", 2000, 100_000, 340, 12),
                run("nginx", "/api/data", 2000, 100_000, 300, 0)), Map.of());
        assertEquals(Optional.of(false), withNginx.targets().getFirst().met(), "12 read errors");
    }
}
