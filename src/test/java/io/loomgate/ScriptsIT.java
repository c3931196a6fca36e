package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.edge.auth.Jwks;
import io.loomgate.edge.auth.JwtVerifier;
import io.loomgate.tls.PemFiles;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.TestClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands the README and docs/getting-started.md give, run as a new user would. */
class ScriptsIT {

    @Test
    void scriptsRunServesHealthAndStopsOnSigterm() throws Exception {
        try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--port", "0", "--threads", "platform", "--pool", "8"),
                Map.of(), MainIT.HOME)) {
            String line = p.awaitStdout(l -> MainIT.LISTENING.matcher(l).matches(), Duration.ofSeconds(120));
            Matcher m = MainIT.LISTENING.matcher(line);
            assertTrue(m.matches());
            assertEquals("threads=platform pool=8, server=loomgate", m.group(2));
            try (TestClient client = new TestClient(URI.create(m.group(1)))) {
                Map<String, Object> health = client.getJson("/health");
                assertEquals("UP", health.get("status"));
                assertEquals("platform", health.get("threads"));
            }
            p.terminate();
            assertEquals(0, p.awaitExit(Duration.ofSeconds(20)), p.stderr().toString());
        }
    }

    /**
     * scripts/run caps the heap whatever the host (the JVM alone would take a quarter of its RAM) and
     * starts it at 32 MB; an operator's {@code LOOMGATE_JAVA_OPTS} raises it (it comes after the
     * defaults, so it wins), and one that sizes the heap drops the 32 MB start, so a smaller ceiling starts.
     */
    @Test
    void scriptsRunCapsTheHeapStartsItSmallAndAnOperatorMaySizeIt() throws Exception {
        Map<String, Long> defaults = heapFlags("-XX:+PrintFlagsFinal");
        assertEquals(256L * 1024 * 1024, defaults.get("MaxHeapSize"), "the default heap, on any host");
        assertEquals(32L * 1024 * 1024, defaults.get("InitialHeapSize"), "started small, grown as the load asks");
        assertEquals(1024L * 1024 * 1024, heapFlags("-Xmx1g -XX:+PrintFlagsFinal").get("MaxHeapSize"), "the operator's own");
        Map<String, Long> small = heapFlags("-Xmx16m -XX:+PrintFlagsFinal");
        assertEquals(16L * 1024 * 1024, small.get("MaxHeapSize"), "a ceiling below the 32 MB start still starts");
        assertTrue(small.get("InitialHeapSize") <= small.get("MaxHeapSize"), small.toString());
    }

    private static Map<String, Long> heapFlags(String javaOpts) throws Exception {
        Map<String, String> env = Map.of("LOOMGATE_JAVA_OPTS", javaOpts, "LOOMGATE_AOT", "off");
        try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--version"), env, MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(120)), p.stderr().toString());
            Map<String, Long> flags = new HashMap<>();
            Pattern flag = Pattern.compile("\\s*size_t (MaxHeapSize|InitialHeapSize)\\s+=\\s*(\\d+).*");
            for (String line : p.stdout()) {
                Matcher m = flag.matcher(line);
                if (m.matches()) {
                    flags.put(m.group(1), Long.parseLong(m.group(2)));
                }
            }
            assertEquals(2, flags.size(), "MaxHeapSize and InitialHeapSize in " + p.stdout().size() + " lines");
            return flags;
        }
    }

    /** The documented check command, {@code scripts/run check FILE}, on a good file and a catch-all. */
    @Test
    void scriptsRunCheckChecksTheExamples() throws Exception {
        try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "check", "examples/compose.json"), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(120)), p.stderr().toString());
            assertTrue(p.stdout().stream().anyMatch(l -> l.startsWith("examples/compose.json: ok")), p.stdout().toString());
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

    /** A cache that cannot be made is said in one line, with the training run's output kept, and loomgate still starts. */
    @Test
    void anAotCacheThatCannotBeMadeIsSaidAndItsTrainingOutputKept() throws Exception {
        Path dir = Files.createTempDirectory("loomgate-aot");
        Path cache = dir.resolve("loomgate.aot");
        Files.createDirectories(cache.resolve("in-the-way"));   // a directory where the cache should go
        Map<String, String> env = Map.of("LOOMGATE_AOT_CACHE", cache.toString());
        try (ChildProcess p = ChildProcess.start(List.of("scripts/run", "--version"), env, MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(120)), p.stderr().toString());
            assertTrue(p.stdout().stream().anyMatch(l -> l.startsWith("loomgate ")), "it still ran: " + p.stdout());
            Path log = dir.resolve("loomgate.aot.log");
            assertTrue(p.stderr().contains("loomgate: the AOT cache could not be made (the training run's output: "
                    + log + "); starting without it"), p.stderr().toString());
            assertTrue(Files.readString(log).contains("the training run left no cache at " + cache), Files.readString(log));
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

    @Test
    void theDemoCertificatesServeHttpsAndTheDemoTokenPassesTheExamplesKeySet(@TempDir Path dir)
            throws Exception {
        Assumptions.assumeTrue(LocalTools.installed("openssl").isPresent(),
                "openssl is not installed (sudo apt-get install openssl)");
        try (ChildProcess p = ChildProcess.start(List.of("scripts/demo-certs", dir.toString()), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(60)), p.stderr().toString());
        }
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0",
                "--tls-cert", dir.resolve("localhost.pem").toString(), "--tls-key", dir.resolve("localhost-key.pem").toString()));
             HttpClient client = HttpClient.newBuilder()
                     .sslContext(trusting(dir.resolve("ca.pem"))).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + gate.baseUri().getPort() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
        }
        String token;
        try (ChildProcess p = ChildProcess.start(List.of("scripts/demo-token", "7", "orders:read"), Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(30)), p.stderr().toString());
            token = p.stdout().getFirst();
        }
        var verifier = new JwtVerifier(new JwtVerifier.Settings(
                Jwks.read(MainIT.HOME.resolve("examples/jwt/jwks.json")), Optional.of("https://demo.loomgate"),
                Optional.of("loomgate-demo"), Duration.ofSeconds(60), Map.of("scope", "orders:read")), Instant::now);
        assertEquals("7", verifier.verify(token).get("sub"));
    }

    private static SSLContext trusting(Path ca) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", PemFiles.certificates(ca).getFirst());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, tmf.getTrustManagers(), null);
        return c;
    }
}
