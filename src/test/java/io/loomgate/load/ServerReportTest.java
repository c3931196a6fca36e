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
        return run(mode, endpoint, requests, 10.0);
    }

    private static RunResult run(String mode, String endpoint, long requests, double seconds) {
        return new RunResult(endpoint, mode, 2000, requests, seconds, Map.of("status", 0L),
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
                        run("proxy-loomgate", "/api/data", 100_000), run("restart-loomgate", "/api/data", 90_000),
                        run("nginx", "/api/data", 120_000)),
                List.of(cpu(4_000, 15), cpu(6_000, 2), cpu(7_000, 15), cpu(7_000, 0), cpu(3_000, 15)),
                List.of(Map.of("server", "loomgate", "connections", 10_000, "answered", 10_000,
                        "rssBeforeKb", 80 * 1024, "rssHeldKb", 150 * 1024)),
                List.of(), Map.of());
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
        assertTrue(r.table().contains("| restart-loomgate | `/api/data` | 2000 | 0 s | 9000 |"), r.table());
        assertEquals("not measured in this run", target(r, "the proxy on loomgate's server restarted: when").measured());
    }

    @Test
    void aRestartsWindowsSayWhenItFirstReachedFourFifthsOfItsWarmedRateAndWhereItsFirstSecondsCpuWent() {
        ServerReport r = new ServerReport(
                List.of(run("proxy-loomgate", "/api/data", 100_000), run("restart-loomgate", "/api/data", 50_000),
                        run("restart-loomgate", "/api/data", 14_000, 2), run("restart-loomgate", "/api/data", 17_000, 2),
                        run("restart-loomgate", "/api/data", 19_000, 2), run("proxy-jdk", "/api/data", 100_000),
                        run("restart-jdk", "/api/data", 40_000), run("restart-jdk", "/api/data", 15_000, 2)),
                List.of(cpu(7_000, 15), cpu(7_000, 0), cpu(2_000, 7), cpu(2_000, 10), cpu(2_000, 13),
                        cpu(9_000, 15), cpu(8_000, 0), cpu(3_000, 7)),
                List.of(),
                List.of(Map.of("server", "loomgate", "jitMs", 2_000, "gcMs", 500, "totalMs", 8_000)),
                Map.of());
        // warmed: 100,000 in 10 s; a 2 s window of 17,000 answers is 8,500/s, 0.85 of it, the first at or above 0.8
        LoadReport.Target ours = target(r, "the proxy on loomgate's server restarted: when");
        assertEquals("in the 2 s window that began 10 s after it listened (8500/s); of its 8.0 s of CPU by then, "
                + "the JIT's compiler threads 25%, the collector's 6%", ours.measured());
        assertEquals(Optional.empty(), ours.met());
        LoadReport.Target jdk = target(r, "the proxy on jdk's server restarted: when");
        assertEquals("not within the window that began 7 s after it listened (7500/s)", jdk.measured());
        assertTrue(target(r, "the proxy on loomgate's server restarted, its first 5 s").measured().startsWith("0.50×"),
                "the 0 s run, not a later window");
    }

    @Test
    void aReferenceThatAnsweredNothingIsSaidSoNotDividedBy() {
        ServerReport r = new ServerReport(
                List.of(run("demo-loomgate", "/block", 150_000), run("demo-jdk", "/block", 0)),
                List.of(cpu(9_000, 15), cpu(9_000, 15)), List.of(), List.of(), Map.of());
        LoadReport.Target block = target(r, "/block at c=10,000");
        assertEquals("15000/s against none: the reference answered nothing in its run", block.measured());
        assertEquals(Optional.of(true), block.met());
    }
}
