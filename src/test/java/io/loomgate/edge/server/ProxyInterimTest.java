package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.FileGate;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream's interim answers through a proxy route (RFC 9110 section 15.2): a {@code 103 Early
 * Hints} reaches the client ahead of the final answer, over HTTP/1.1 and HTTP/2, its hop-by-hop
 * fields left out; the upstream's {@code 100 Continue} does not; the final answer is cached and the
 * interim one never is. The JDK's server cannot send one: there it is dropped. The upstream writes
 * its bytes by hand, so the interim answers are exactly what it sends.
 */
class ProxyInterimTest {

    @TempDir
    Path dir;

    /** Answers every request with a 100, a 103, then a cacheable 200 "ok", on one keep-alive connection at a time. */
    private static ServerSocket upstream(AtomicInteger requests) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    while (readHead(in)) {
                        requests.incrementAndGet();
                        out.write(("HTTP/1.1 100 Continue\r\n\r\n"
                                + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\nConnection: x-hop\r\nX-Hop: 1\r\n\r\n"
                                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nCache-Control: max-age=60\r\n\r\nok").getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                } catch (Exception e) {
                    // the gateway closed it, or the test is over
                }
            }
        });
        return server;
    }

    private static boolean readHead(InputStream in) throws java.io.IOException {
        int matched = 0;
        for (int b; (b = in.read()) >= 0; ) {
            matched = (b == '\r' || b == '\n') ? (matched == 3 && b == '\n' ? 4 : matched + ((b == '\r') == (matched % 2 == 0) ? 1 : 0)) : 0;
            if (matched == 4) {
                return true;
            }
        }
        return false;
    }

    /** What an HTTP/1.1 client reads for {@code GET path}, up to the final answer's body. */
    private static String raw(FileGate g, String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", g.gate().baseUri().getPort())) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            s.getInputStream().transferTo(got);
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void earlyHintsReachTheClientAheadOfTheAnswerAndAreNeverStored() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        boolean jdk = "jdk".equals(System.getProperty("loomgate.server"));
        try (ServerSocket up = upstream(requests);
             FileGate g = FileGate.start(dir, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getLocalPort()
                     + "/\", \"cache\": {\"maxBytes\": \"1MB\"}}", List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"up\"]}"))) {
            String first = raw(g, "/p/x");
            assertTrue(first.endsWith("ok"), first);
            assertTrue(!first.contains("100 Continue"), "the upstream's 100 is not the client's: " + first);
            if (jdk) {
                assertTrue(first.startsWith("HTTP/1.1 200"), "the JDK's server has no way to send an interim answer: " + first);
            } else {
                assertTrue(first.startsWith("HTTP/1.1 103 Early Hints\r\n"), first);
                String hints = first.substring(0, first.indexOf("\r\n\r\n"));
                assertTrue(hints.contains("Link: </style.css>; rel=preload; as=style"), hints);
                assertTrue(!hints.contains("X-Hop") && !hints.contains("Connection"), "its hop-by-hop fields stay behind: " + hints);
                assertTrue(first.indexOf("HTTP/1.1 200 OK") > first.indexOf("Early Hints"), first);
            }
            String second = raw(g, "/p/x");
            assertTrue(second.startsWith("HTTP/1.1 200"), "served from the cache, without the interim answer: " + second);
            assertTrue(second.contains("hit"), second);
            assertEquals(1, requests.get(), "the final answer was stored, the 103 was not");
            if (!jdk) {
                try (H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()))) {
                    w.request(1, "GET", "/p/h2", true);
                    H2Wire.Answer a = w.answer(1);
                    assertEquals(List.of("103", "200"), w.statuses(1), "over HTTP/2: a HEADERS with 103, then the answer's");
                    assertEquals("</style.css>; rel=preload; as=style", a.fields().get("link"));
                    assertEquals("ok", new String(a.body(), StandardCharsets.UTF_8));
                }
            }
        }
    }

    /**
     * From an HTTP/2 upstream too: a second loomgate, in front of the first over h2c, passes on the
     * 103 the first sends it as an interim HEADERS frame (its reader hands it to the waiting call).
     */
    @Test
    void earlyHintsFromAnHttp2UpstreamToo() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse("jdk".equals(System.getProperty("loomgate.server")),
                "the JDK's server speaks no HTTP/2 and sends no interim answer: the other run covers it");
        AtomicInteger requests = new AtomicInteger();
        Path inner = dir.resolve("inner");
        Path outer = dir.resolve("outer");
        java.nio.file.Files.createDirectories(inner);
        java.nio.file.Files.createDirectories(outer);
        try (ServerSocket up = upstream(requests);
             FileGate first = FileGate.start(inner, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getLocalPort() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"up\"]}"));
             FileGate second = FileGate.start(outer, "{\"id\": \"inner\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:"
                     + first.gate().baseUri().getPort() + "/p/\", \"protocol\": \"h2c\"}",
                     List.of("{\"path\": \"/q/*\", \"policy\": \"proxy\", \"upstreams\": [\"inner\"]}"))) {
            String got = raw(second, "/q/x");
            assertTrue(got.startsWith("HTTP/1.1 103 Early Hints\r\n"), got);
            assertTrue(got.substring(0, got.indexOf("\r\n\r\n")).contains("Link: </style.css>; rel=preload; as=style"), got);
            assertTrue(got.endsWith("ok"), got);
        }
    }
}
