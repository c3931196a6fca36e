package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The server scenario's report, on made-up runs: CPU per request, the ratios and the verdicts. */
class ServerReportTest {

    private static RunResult run(String mode, String endpoint, long requests) {
        return new RunResult(endpoint, mode, 2000, requests, 10.0, Map.of("status", 0L),
                Map.of("p50", 100_000.0, "p99", 200_000.0), 512 * 1024);
    }

    private static Map<String, Object> cpu(long ms, int warm) {
        return Map.of("cpuMs", ms, "warmSeconds", warm);
    }

    private static LoadReport.Target target(ServerReport r, String startsWith) {
        return r.targets().stream().filter(t -> t.what().startsWith(startsWith)).findFirst().orElseThrow();
    }

    @Test
    void cpuPerRequestRatiosAndVerdictsComeFromTheRuns() {
        ServerReport r = new ServerReport(
                List.of(run("bare-loomgate", "/hello", 500_000), run("proxy-loomgate", "/api/data", 50_000),
                        run("proxy-loomgate", "/api/data", 100_000), run("proxy-loomgate", "/api/data", 90_000),
                        run("nginx", "/api/data", 120_000)),
                List.of(cpu(4_000, 15), cpu(6_000, 2), cpu(7_000, 15), cpu(7_000, 0), cpu(3_000, 15)),
                List.of(Map.of("server", "loomgate", "connections", 10_000, "answered", 10_000,
                        "rssBeforeKb", 80 * 1024, "rssHeldKb", 150 * 1024)),
                Map.of());
        LoadReport.Target hello = target(r, "the bare server program's CPU");
        assertTrue(hello.measured().startsWith("8.0 µs"), hello.measured());
        assertEquals(Optional.of(true), hello.met());
        LoadReport.Target proxy = target(r, "the proxy on loomgate's server ≥ 1.0× nginx");
        assertTrue(proxy.measured().startsWith("0.83×"), "the warmed run, not the restart: " + proxy.measured());
        assertEquals(Optional.of(false), proxy.met());
        LoadReport.Target restart = target(r, "the proxy on loomgate's server restarted");
        assertTrue(restart.measured().startsWith("0.90×"), restart.measured());
        assertEquals(Optional.of(true), restart.met());
        LoadReport.Target cpu = target(r, "CPU per proxied request on loomgate's");
        assertTrue(cpu.measured().startsWith("70.0 µs"), cpu.measured());
        LoadReport.Target idle = target(r, "10000 idle connections on loomgate's");
        assertEquals(Optional.of(true), idle.met(), idle.measured());
        assertEquals("not measured in this run", target(r, "/block at c=10,000").measured());
        assertTrue(r.table().contains("| proxy-loomgate | `/api/data` | 2000 | 0 s | 9000 |"), r.table());
    }
}
