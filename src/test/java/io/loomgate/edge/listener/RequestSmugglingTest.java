package io.loomgate.edge.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import io.loomgate.testing.RawHttp;
import io.loomgate.testing.ScriptedUpstream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two requests the JDK server misreads (docs/operations.md, Known limits): a chunk size of 2^32,
 * which its decoder reads into an {@code int} as 0, and a bare CR inside a header value, which it
 * takes for a line end. loomgate on the JDK's server alone, then behind real nginx and HAProxy, which
 * must stop both before loomgate sees them; and loomgate's own server, which reads both as what they
 * are. Each front end is skipped, saying why, where it is not installed.
 */
class RequestSmugglingTest {

    /** A chunked body whose first chunk announces 2^32 bytes; what follows is a second request, to a front end that misreads it. */
    private static final String OVERFLOW = "POST /px/ok/first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "100000000\r\n\r\nGET /px/ok/smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final String BARE_CR = "GET /px/ok/bare-cr HTTP/1.1\r\nHost: x\r\nX-A: a\rX-Injected: yes\r\n\r\n";

    private static ScriptedUpstream upstream;
    private static Loomgate gate;
    private static Loomgate ours;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        dir = Files.createTempDirectory("loomgate-smuggling");
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "up", "kind": "http", "url": "%s"}],
                 "routes": [{"path": "/px/*", "policy": "proxy", "upstreams": ["up"]}]}""".formatted(upstream.url("/")));
        gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(), "--server", "jdk"));
        ours = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(), "--server", "loomgate"));
    }

    @AfterAll
    static void stop() throws IOException {
        gate.close();
        ours.close();
        upstream.close();
        LocalTools.deleteTree(dir);
    }

    @Test
    void anOverflowingChunkSizeGetsOneAnswerAndTheConnectionClosesSoNothingAfterItIsRead() throws Exception {
        long before = upstream.count("/ok/smuggled");
        String answer = sendAndReadToClose(gate.server().address(), OVERFLOW);
        assertEquals(1, count(answer, "HTTP/1.1 "), "one answer, no second one for the bytes after the body: " + answer);
        assertTrue(answer.toLowerCase().contains("connection: close"), answer);
        assertEquals(before, upstream.count("/ok/smuggled"), "the bytes after the misread body were never read as a request");
    }

    @Test
    void theJdkServerSplitsAHeaderValueAtABareCrAKnownLimit() {
        // If this fails, the JDK has changed how it reads a bare CR: update Known limits in docs/operations.md.
        RawHttp.Answer a = RawHttp.send(gate.server().address(), BARE_CR);
        assertEquals(200, a.status(), a.text());
        assertEquals("yes", upstream.last("/ok/bare-cr").header("X-Injected"));
    }

    @Test
    void loomgatesServerRefusesTheBareCrAndReadsTheHugeChunkAsAChunk() throws Exception {
        long smuggled = upstream.count("/ok/smuggled");
        long bareCr = upstream.count("/ok/bare-cr");
        RawHttp.Answer cr = RawHttp.send(ours.server().address(), BARE_CR);
        assertEquals(400, cr.status(), cr.text());
        assertEquals(bareCr, upstream.count("/ok/bare-cr"), "the bare CR never reached the upstream");
        // The proxy streams the body; the bytes after the chunk size are the chunk's data, never a request.
        String overflow = sendAndReadToClose(ours.server().address(), OVERFLOW);
        assertTrue(count(overflow, "HTTP/1.1 ") <= 1, overflow);
        assertEquals(smuggled, upstream.count("/ok/smuggled"), "the bytes after the chunk size were never read as a request");
        assertFalse(overflow.contains("{\"tag\":\"smuggled\"}"), overflow);
    }

    @Test
    void nginxInFrontStopsBoth() throws Exception {
        Optional<Path> nginx = LocalTools.installed("nginx");
        skipUnless(nginx, "nginx", "nginx-light");
        int port = LocalTools.freePort();
        Path conf = dir.resolve("nginx");
        Files.createDirectories(conf);
        Files.writeString(conf.resolve("nginx.conf"), """
                worker_processes 1;
                error_log %1$s/error.log warn;
                pid %1$s/nginx.pid;
                events { worker_connections 100; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/body; proxy_temp_path %1$s/proxy;
                  fastcgi_temp_path %1$s/fcgi; uwsgi_temp_path %1$s/uwsgi; scgi_temp_path %1$s/scgi;
                  server {
                    listen 127.0.0.1:%2$d;
                    location / { proxy_pass http://127.0.0.1:%3$d; proxy_http_version 1.1; proxy_set_header Connection ""; }
                  }
                }
                """.formatted(conf, port, gate.server().address().getPort()));
        try (ChildProcess p = ChildProcess.start(List.of(nginx.get().toString(), "-c", conf.resolve("nginx.conf").toString(),
                "-g", "daemon off;"), Map.of(), dir)) {
            frontEndStopsBoth("nginx", port, p);
        }
    }

    @Test
    void haproxyInFrontStopsBoth() throws Exception {
        Optional<Path> haproxy = LocalTools.installed("haproxy");
        skipUnless(haproxy, "haproxy", "haproxy");
        int port = LocalTools.freePort();
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, """
                defaults
                  mode http
                  timeout connect 5s
                  timeout client 3s
                  timeout server 10s
                frontend fe
                  bind 127.0.0.1:%d
                  default_backend be
                backend be
                  server loomgate 127.0.0.1:%d
                """.formatted(port, gate.server().address().getPort()));
        try (ChildProcess p = ChildProcess.start(List.of(haproxy.get().toString(), "-db", "-f", cfg.toString()), Map.of(), dir)) {
            frontEndStopsBoth("haproxy", port, p);
        }
    }

    /** The bare CR is refused with a 400; the 2^32 chunk is refused or read as the huge chunk it is, never as 0. */
    private static void frontEndStopsBoth(String name, int port, ChildProcess process) throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            assertTrue(process.isAlive(), name + " exited: " + process.stderr());
            try (Socket s = new Socket("127.0.0.1", port)) {
                return true;
            }
        });
        long smuggled = upstream.count("/ok/smuggled");
        long bareCr = upstream.count("/ok/bare-cr");
        String overflow = sendAndReadToClose(address, OVERFLOW);
        RawHttp.Answer cr = RawHttp.send(address, BARE_CR);
        System.out.println(name + " in front: the 2^32 chunk got '" + firstLine(overflow) + "', the bare CR got '"
                + firstLine(cr.text()) + "'");
        assertEquals(400, cr.status(), name + " refuses a bare CR in a header: " + cr.text());
        assertEquals(bareCr, upstream.count("/ok/bare-cr"), name + " let the bare CR through");
        assertEquals(smuggled, upstream.count("/ok/smuggled"), name + " let the bytes after the chunk through as a request");
        assertFalse(overflow.contains("{\"tag\":\"smuggled\"}"), overflow);
    }

    private static void skipUnless(Optional<Path> program, String name, String pkg) {
        if (program.isEmpty()) {
            System.out.println("RequestSmugglingTest: SKIPPED " + name + " in front: it is not installed (install: sudo apt-get install " + pkg + ")");
        }
        Assumptions.assumeTrue(program.isPresent(), name + " is not installed");
    }

    /** Writes {@code request}, then reads until the server closes or 3 s pass with nothing more. */
    private static String sendAndReadToClose(InetSocketAddress address, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 5_000);
            s.setSoTimeout(3_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            StringBuilder got = new StringBuilder();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = s.getInputStream().read(buf)) > 0; ) {
                    got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                }
            } catch (IOException timedOutOrReset) {
                // what came is what we have
            }
            return got.toString();
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\r');
        return end < 0 ? text : text.substring(0, end);
    }
}
