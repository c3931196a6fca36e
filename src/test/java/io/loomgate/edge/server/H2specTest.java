package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.GoHttpbin;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * h2spec ({@code github.com/summerwind/h2spec}, written elsewhere; nginx 1.22 passes 117 of its 145
 * cases) against loomgate's HTTP/2, in clear with prior knowledge and over TLS. Its requests go
 * to a proxy route in front of go-httpbin's {@code /anything}, which reads a request's whole body
 * before it answers, so the cases that send a stream's frames after its HEADERS find the stream
 * still open, as they assume (a route that answers before the body has arrived ends the stream
 * first, as RFC 9113 section 8.1 allows). One case cannot pass where h2c shares its port with
 * HTTP/1.1: 3.5/2 sends a preface that is not HTTP/2's, which loomgate then reads as an HTTP/1.1
 * request and answers 400 before closing; h2spec wants the connection closed without a word.
 */
class H2specTest {

    static final String BUILD = "cd ~/.cache/loomgate/h2spec-v2.2.1/src && go mod init loomgate.local/h2spec"
            + " && go get -tool github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible"
            + " && go build -o ../h2spec github.com/summerwind/h2spec/cmd/h2spec (scripts/test does this; or set LOOMGATE_H2SPEC)";

    private static final TestCertificates CA = TestCertificates.ca();
    private static final TestCertificates.Issued SERVER = CA.issue("gateway-h2spec", "dns:localhost,ip:127.0.0.1");
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) tests, (\\d+) passed, (\\d+) skipped, (\\d+) failed");

    private static Path h2spec() {
        String set = System.getenv("LOOMGATE_H2SPEC");
        Path binary = set != null && Files.isExecutable(Path.of(set)) ? Path.of(set) : LocalTools.installed("h2spec").orElse(null);
        if (binary == null) {
            fail("h2spec is not built, and this test needs it (build it: " + BUILD + ")");
        }
        return binary;
    }

    /** Runs h2spec and returns its report, which ends with the summary line. */
    private static String run(int port, boolean tls) throws Exception {
        List<String> command = new ArrayList<>(List.of(h2spec().toString(), "-h", "127.0.0.1", "-p", String.valueOf(port),
                "--path", "/bin/anything", "-o", "10"));
        if (tls) {
            command.addAll(List.of("-t", "-k"));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "h2spec did not end");
        return out;
    }

    /** The failed cases' lines (after the report's "Failures:" section heading, each marked ×). */
    private static List<String> failed(String report) {
        int at = report.indexOf("Failures:");
        List<String> failed = new ArrayList<>();
        if (at >= 0) {
            for (String line : report.substring(at).split("\n")) {
                if (line.contains("×")) {
                    failed.add(line.trim());
                }
            }
        }
        return failed;
    }

    private static Path routes(Path dir, GoHttpbin bin) throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "bin", "kind": "http", "url": "%s/"}],
                 "routes": [{"path": "/bin/*", "policy": "proxy", "upstreams": ["bin"]}]}""".formatted(bin.url()));
        return routes;
    }

    @Test
    void everyCasePassesInClearButTheOneASharedPortCannot(@TempDir Path dir) throws Exception {
        try (GoHttpbin bin = GoHttpbin.start(1 << 20);
             Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes(dir, bin).toString()))) {
            String report = run(gate.baseUri().getPort(), false);
            Matcher m = SUMMARY.matcher(report);
            assertTrue(m.find(), report);
            assertEquals(List.of("× 2: Sends invalid connection preface"), failed(report), report);
            assertEquals("145 144", m.group(1) + " " + m.group(2), report);
        }
    }

    @Test
    void everyCasePassesOverTls(@TempDir Path dir) throws Exception {
        try (GoHttpbin bin = GoHttpbin.start(1 << 20);
             Loomgate gate = Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes(dir, bin).toString(),
                     "--tls-cert", SERVER.chainPem().toString(), "--tls-key", SERVER.keyPem().toString()))) {
            String report = run(gate.baseUri().getPort(), true);
            Matcher m = SUMMARY.matcher(report);
            assertTrue(m.find(), report);
            assertEquals(List.of(), failed(report), report);
            assertEquals("145 145", m.group(1) + " " + m.group(2), report);
        }
    }
}
