package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The commands the README and docs/getting-started.md give, run as a new user would. */
class ScriptsIT {

    @Test
    void scriptsRunServesHealthAndStopsOnSigterm() throws Exception {
        try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--port", "0", "--threads", "platform", "--pool", "8"),
                Map.of(), MainIT.HOME)) {
            String line = p.awaitStdout(l -> MainIT.LISTENING.matcher(l).matches(), Duration.ofSeconds(120));
            Matcher m = MainIT.LISTENING.matcher(line);
            assertTrue(m.matches());
            assertEquals("threads=platform pool=8", m.group(2));
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                Map<String, Object> health = client.getJson("/health");
                assertEquals("UP", health.get("status"));
                assertEquals("platform", health.get("threads"));
            }
            p.terminate();
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)), p.stderr().toString());
        }
    }

    /** scripts/run makes JDK 25's AOT cache once, then uses it; a cache it cannot use is skipped without a word. */
    @Test
    void theAotCacheIsMadeOnceAndABadOneIsSkippedSilently() throws Exception {
        Path dir = Files.createTempDirectory("loomgate-aot");
        Path cache = dir.resolve("loomgate.aot");
        Map<String, String> env = Map.of("LOOMGATE_AOT_CACHE", cache.toString());
        try {
            try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--version"), env, MainIT.HOME)) {
                assertEquals(0, p.awaitExit(Duration.ofSeconds(120)), p.stderr().toString());
                assertTrue(p.stderr().stream().anyMatch(l -> l.startsWith("loomgate: making the AOT cache")), p.stderr().toString());
            }
            assertTrue(Files.size(cache) > 1_000_000, "a cache of the loaded classes: " + Files.size(cache));
            try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--version"), env, MainIT.HOME)) {
                assertEquals(0, p.awaitExit(Duration.ofSeconds(60)), p.stderr().toString());
                assertTrue(p.stderr().stream().noneMatch(l -> l.contains("AOT")), "made once: " + p.stderr());
            }
            Files.writeString(cache, "not a cache");   // newer than the jar, same JDK: kept, and unusable
            try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--port", "0"), env, MainIT.HOME)) {
                String line = p.awaitStdout(l -> MainIT.LISTENING.matcher(l).matches(), Duration.ofSeconds(60));
                Matcher m = MainIT.LISTENING.matcher(line);
                assertTrue(m.matches());
                try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                    assertEquals("UP", client.getJson("/health").get("status"));
                }
                p.terminate();
                assertEquals(0, p.awaitExit(Duration.ofSeconds(20)), p.stderr().toString());
                assertEquals(List.of(line), p.stdout(), "nothing but the listening line on stdout");
            }
        } finally {
            LocalTools.deleteTree(dir);
        }
    }

    @Test
    void withoutAJdk25TheScriptsSayWhatTheyFound() throws Exception {
        Map<String, String> env = Map.of(
                "JAVA_HOME", "/nonexistent-jdk",
                "PATH", "/usr/bin:/bin",
                "LOOMGATE_JDK_SEARCH", "/nonexistent-dir/*");
        for (String script : List.of("scripts/run", "scripts/test")) {
            try (ChildProcess p = ChildProcess.start(List.of(script, "--version"), env, MainIT.HOME)) {
                assertEquals(1, p.awaitExit(Duration.ofSeconds(30)), script);
                String err = String.join("\n", p.stderr());
                assertTrue(err.startsWith("loomgate: needs a JDK 25"), err);
                assertTrue(err.contains("JAVA_HOME=/nonexistent-jdk (no bin/java)"), err);
                assertEquals(1, p.stderr().size(), "one clear line: " + err);
            }
        }
    }
}
