package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load harness, run for real but briefly: the Lua reporter, and scripts/load end to end. */
class LoadHarnessIT {

    /**
     * How long a scenario may take (about a minute on a 2-core machine): under JUnit's own limit of
     * 5 minutes, so a scenario that hangs fails here, with what scripts/load printed up to then.
     */
    private static final Duration SCENARIO_LIMIT = Duration.ofMinutes(4);

    private static Path wrk() {
        Path found = Stream.of(System.getenv("PATH").split(":")).map(d -> Path.of(d, "wrk"))
                .filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(found != null,
                "SKIPPED: wrk is not installed, so the load harness cannot run (install it: sudo apt-get install wrk)");
        return found;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theLuaReporterPrintsTheDocumentedJson() throws Exception {
        Path wrk = wrk();
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"));
             ChildProcess p = ChildProcess.start(List.of(wrk.toString(), "-t1", "-c4", "-d1s", "--timeout", "10s",
                     "-s", "load/report.lua", gate.baseUri() + "/health"), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(30)), p.stderr().toString());
            String line = p.stdout().stream().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow();
            Map<String, Object> report = JsonParser.parseObject(line);
            assertTrue(report.keySet().containsAll(List.of("requests", "durationUs", "rps", "errors", "latencyUs")), line);
            assertTrue((Long) report.get("requests") > 100, line);
            assertEquals(Map.of("connect", 0L, "read", 0L, "write", 0L, "status", 0L, "timeout", 0L), report.get("errors"));
            Map<String, Object> latency = (Map<String, Object>) report.get("latencyUs");
            assertTrue(latency.keySet().containsAll(List.of("mean", "p50", "p90", "p99", "p999", "max")), line);
            assertTrue(((Number) latency.get("p50")).doubleValue() <= ((Number) latency.get("p99")).doubleValue());
        }
    }

    @Test
    void scriptsLoadQuickRunsEndToEndAndLeavesNothingBehind() throws Exception {
        wrk();
        Path results = MainIT.HOME.resolve("load/results");
        Path latest = results.resolve("latest");
        Map<Path, String> latestBefore = digests(latest);
        Set<Path> before = listing(results);
        try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--quick", "--endpoints", "/health",
                "--connections", "10"), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(SCENARIO_LIMIT), String.join("\n", p.stdout()) + String.join("\n", p.stderr()));
            assertTrue(p.stdout().stream().anyMatch(l -> l.startsWith("| `/health` | virtual | 10 |")), p.stdout().toString());
        }
        Set<Path> created = listing(results);
        created.removeAll(before);
        assertEquals(1, created.size(), "one new results directory: " + created);
        Path out = created.iterator().next();
        assertEquals(latestBefore, digests(latest), "a run without --record leaves the committed latest/ alone");
        try {
            checkRun(out);
        } finally {
            try (Stream<Path> files = Files.walk(out)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static Set<Path> listing(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }

    private static Map<Path, String> digests(Path dir) throws Exception {
        Map<Path, String> result = new java.util.TreeMap<>();
        for (Path f : listing(dir)) {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
            result.put(f.getFileName(), java.util.HexFormat.of().formatHex(hash));
        }
        return result;
    }

    private static void checkRun(Path out) throws Exception {
        assertTrue(Files.exists(out.resolve("report.md")));
        assertTrue(Files.readString(out.resolve("report.svg")).startsWith("<svg"));
        try (Stream<Path> runs = Files.list(out)) {
            assertEquals(3, runs.filter(f -> f.getFileName().toString().startsWith("run-")).count(),
                    "virtual, platform and bare");
        }
        List<String> leftovers = ProcessHandle.allProcesses()
                .map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("-Dloomgate.harness=") || c.contains("load/Bare.java")).toList();
        assertEquals(List.of(), leftovers, "scripts/load stopped everything it started");
    }

    @Test
    void theProxyScenarioRunsEndToEndAndLeavesNothingBehind(@TempDir Path out) throws Exception {
        wrk();
        boolean nginx = Stream.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx").map(Path::of)
                .anyMatch(Files::isExecutable);
        if (!nginx) {
            System.out.println("nginx is not installed: the proxy scenario runs without its nginx row");
        }
        try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--scenario", "proxy", "--quick",
                "--out", out.toString()), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(SCENARIO_LIMIT), String.join("\n", p.stdout()) + String.join("\n", p.stderr()));
            assertTrue(p.stdout().stream().anyMatch(l -> l.startsWith("| proxy-virtual | `/api/data` | 2000 |")), p.stdout().toString());
        }
        try (Stream<Path> runs = Files.list(out)) {
            assertEquals(nginx ? 5 : 4, runs.filter(f -> f.getFileName().toString().startsWith("run-")).count(),
                    "backend, proxy in both modes, nginx where installed, and the HTTP /aggregate");
        }
        List<String> bench = Files.readAllLines(out.resolve("client-bench.jsonl"));
        assertEquals(2, bench.size(), bench.toString());
        assertTrue(bench.get(0).contains("\"client\":\"jdk-httpclient\"") && bench.get(1).contains("loomgate-http1client"));
        assertTrue(Files.readString(out.resolve("report.md")).contains("## Targets"));
        List<String> leftovers = ProcessHandle.allProcesses().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("-Dloomgate.harness=") || c.contains("loomgate-nginx")).toList();
        assertEquals(List.of(), leftovers, "the scenario stopped everything it started, nginx included");
    }

    @Test
    void theComposeScenarioRunsEndToEndAndLeavesNothingBehind(@TempDir Path out) throws Exception {
        wrk();
        try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--scenario", "compose", "--quick",
                "--out", out.toString()), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(SCENARIO_LIMIT), String.join("\n", p.stdout()) + String.join("\n", p.stderr()));
            assertTrue(p.stdout().stream().anyMatch(l -> l.startsWith("| `/chain/7` | chain (220 ms) | 1 |")), p.stdout().toString());
        }
        try (Stream<Path> files = Files.list(out)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertEquals(6, names.stream().filter(n -> n.startsWith("run-")).count(), names.toString());
            assertEquals(6, names.stream().filter(n -> n.startsWith("cpu-")).count(), "each run's CPU time: " + names);
        }
        assertTrue(Files.readString(out.resolve("report.md")).contains("## Targets"));
        List<String> leftovers = ProcessHandle.allProcesses().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("-Dloomgate.harness=")).toList();
        assertEquals(List.of(), leftovers, "the scenario stopped everything it started");
    }

    @Test
    void theTlsAndRateLimitScenariosRunEndToEnd(@TempDir Path out) throws Exception {
        wrk();
        Assumptions.assumeTrue(LocalTools.installed("openssl").isPresent(), "openssl is not installed: scripts/demo-certs needs it");
        for (String scenario : List.of("ratelimit", "tls")) {
            Path dir = out.resolve(scenario);
            try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--scenario", scenario, "--quick",
                    "--out", dir.toString()), Map.of(), MainIT.HOME)) {
                assertEquals(0, p.awaitExit(SCENARIO_LIMIT), String.join("\n", p.stdout()) + String.join("\n", p.stderr()));
            }
            String report = Files.readString(dir.resolve("report.md"));
            assertTrue(report.contains("## Targets"), report);
            assertTrue(scenario.equals("tls") ? report.contains("| HTTPS |") : report.contains("of the 100/s limit"), report);
        }
        List<String> leftovers = ProcessHandle.allProcesses().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("-Dloomgate.harness=")).toList();
        assertEquals(List.of(), leftovers, "the scenarios stopped everything they started");
    }

    @Test
    void withoutWrkScriptsLoadSaysHowToInstallItAndExitsTwo(@TempDir Path bin) throws Exception {
        for (String tool : List.of("bash", "dirname")) {
            Path real = Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, tool)).filter(Files::isExecutable)
                    .findFirst().orElseThrow();
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
        try (ChildProcess p = ChildProcess.start(List.of(bin.resolve("bash").toString(), "scripts/load", "--quick"),
                Map.of("PATH", bin.toString()), MainIT.HOME)) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(30)));
            assertTrue(String.join("\n", p.stderr()).contains("apt-get install wrk"), p.stderr().toString());
        }
    }

    @Test
    void scriptsLoadDocumentsItselfAndRefusesUnknownOptions() throws Exception {
        try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--help"), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(30)));
            String help = String.join("\n", p.stdout());
            for (String option : List.of("--quick", "--endpoints", "--connections", "--duration", "--threads", "--stress", "--out",
                    "--record")) {
                assertTrue(help.contains(option), option);
            }
        }
        try (ChildProcess p = ChildProcess.start(List.of("scripts/load", "--bogus"), Map.of(), MainIT.HOME)) {
            assertEquals(2, p.awaitExit(Duration.ofSeconds(30)));
        }
    }
}
