package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short soak (15 s at c=500) as part of the suite; scripts/soak --duration 60s is the full one. */
class SoakIT {

    @Test
    void aShortSoakPasses(@TempDir Path out) throws Exception {
        boolean wrk = Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "wrk")));
        Assumptions.assumeTrue(wrk, "SKIPPED: wrk is not installed, so the soak cannot run (install it: sudo apt-get install wrk)");
        try (ChildProcess p = ChildProcess.start(List.of("scripts/soak", "--duration", "15s", "--warmup", "8s", "--out", out.toString()),
                Map.of(), MainIT.HOME)) {
            int exit = p.awaitExit(Duration.ofMinutes(3));
            String printed = String.join("\n", p.stdout());
            assertEquals(0, exit, printed + "\n" + String.join("\n", p.stderr()));
            assertTrue(printed.contains("| no 500s | 0 seen by wrk, 0 counted by loomgate | ok |"), printed);
            assertTrue(printed.contains("soak: passed"), printed);
            assertTrue(Files.readString(out.resolve("summary.md")).contains("soak: passed"));
        }
        List<String> leftovers = ProcessHandle.allProcesses().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains("-Dloomgate.harness=soak-")).toList();
        assertEquals(List.of(), leftovers, "scripts/soak stopped its server");
    }
}
