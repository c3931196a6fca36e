package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.TestCertificates;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a stranger with nothing but the public port can do to a loomgate with a small heap
 * ({@code -Xmx256m}, exiting on OutOfMemoryError): flood it with long rate-limit keys, hold thousands
 * of connections half way through a TLS handshake, renegotiate TLS again and again. These are
 * survival tests, not timed ones: afterwards the process is alive and answering.
 */
class AbuseIT {

    private static final Pattern LISTENING = Pattern.compile("loomgate listening on (https?://\\S+) .*");

    @TempDir
    Path dir;

    private static ChildProcess smallHeap(String... args) {
        List<String> cmd = new ArrayList<>(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar", MainIT.JAR));
        cmd.addAll(List.of(args));
        return ChildProcess.start(ChildProcess.java(cmd.toArray(String[]::new)), Map.of(), MainIT.HOME);
    }

    private static URI started(ChildProcess p) throws InterruptedException {
        Matcher m = LISTENING.matcher(p.awaitStdout(l -> LISTENING.matcher(l).matches(), Duration.ofSeconds(30)));
        assertTrue(m.matches());
        return URI.create(m.group(1));
    }

    /**
     * 20,000 requests, each with a new 15 KB value of the header a route is limited by, then 20,000
     * with a new 15 KB X-Forwarded-For from a trusted proxy on a route limited by address: 600 MB of
     * keys in all. Held as text, they ran a 512 MB gateway out of memory after about 35,000.
     */
    @Test
    void aFloodOfLongRateLimitKeysLeavesTheHeapAlone() throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "db", "kind": "simulated", "service": "db", "latency": "0ms"}],
                 "routes": [{"path": "/by-header", "policy": "single", "upstreams": ["db"],
                             "rateLimit": {"perSecond": 1000, "burst": 1000, "by": "header.X-Key"}},
                            {"path": "/by-ip", "policy": "single", "upstreams": ["db"],
                             "rateLimit": {"perSecond": 1000, "burst": 1000, "by": "ip"}}]}""");
        try (ChildProcess p = smallHeap("--port", "0", "--routes", routes.toString(), "--trusted-proxies", "127.0.0.1")) {
            URI base = started(p);
            String value = "k".repeat(15_000);
            int headerKeys = flood(base, i -> "GET /by-header HTTP/1.1\r\nHost: x\r\nX-Key: " + value + i + "\r\n\r\n");
            int forwarded = flood(base, i -> "GET /by-ip HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + value + i + "\r\n\r\n");
            assertTrue(p.isAlive(), "alive after the floods; stderr: " + p.stderr());
            assertEquals(20_000, headerKeys, "every request with a new key got its own full bucket (200)");
            assertTrue(forwarded > 0, "some forwarded requests were served");
            try (TestClient client = new TestClient(base)) {
                assertEquals(200, client.get("/health").statusCode());
                PrometheusText m = PrometheusText.parse(client.get("/metrics?format=prometheus").body());
                double keys = m.value("loomgate_limit_keys", Map.of("limit", "rate_limit", "route", "/by-header"));
                assertEquals(20_000, keys, "20,000 keys of 16 bytes each, under the default maxKeys");
                assertEquals(1, m.value("loomgate_limit_keys", Map.of("limit", "rate_limit", "route", "/by-ip")),
                        "a forwarded text that is not an IP address is not a client: the peer is, one key");
                System.out.println("after 40,000 requests with 15 KB keys: heap used "
                        + (long) m.value("loomgate_jvm_heap_used_bytes", Map.of()) / 1_000_000 + " MB of 256");
            }
        }
    }

    /** Sends 20,000 requests over 8 keep-alive connections; returns how many were answered 200. */
    private static int flood(URI base, java.util.function.IntFunction<String> request) throws Exception {
        AtomicInteger ok = new AtomicInteger();
        InetSocketAddress address = new InetSocketAddress(base.getHost(), base.getPort());
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> connections = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                int from = c * 2_500;
                connections.add(pool.submit(() -> {
                    try (RawConnection raw = new RawConnection(address)) {
                        for (int i = from; i < from + 2_500; i++) {
                            if (raw.exchange(request.apply(i), false).status() == 200) {
                                ok.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : connections) {
                f.get();
            }
        }
        return ok.get();
    }

    /**
     * 6,000 connections that each send 50 bytes of a TLS ClientHello and wait. At about 80 KB each
     * that is more than the heap; the default connection cap (a quarter of the heap at that cost) closes the
     * rest as they come, a client that was already connected goes on, and once the handshake deadline
     * (--read-timeout) has passed, new clients get in again.
     */
    @Test
    void stalledTlsHandshakesAreBoundedAndAnEstablishedClientGoesOn() throws Exception {
        TestCertificates.Issued cert = TestCertificates.ca().issue("abuse", "dns:localhost,ip:127.0.0.1");
        try (ChildProcess p = smallHeap("--port", "0", "--tls-cert", cert.chainPem().toString(), "--tls-key",
                cert.keyPem().toString(), "--read-timeout", "5s")) {
            URI base = started(p);
            HttpClient established = HttpClient.newBuilder().sslContext(TestCertificates.ca().clientContext()).build();
            HttpRequest health = HttpRequest.newBuilder(base.resolve("/health")).build();
            assertEquals(200, established.send(health, HttpResponse.BodyHandlers.ofString()).statusCode());
            byte[] hello = Arrays.copyOf(clientHello(), 50);
            List<Socket> stalled = new ArrayList<>();
            int closedAtOnce = 0;
            try {
                for (int i = 0; i < 6_000; i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
                        s.getOutputStream().write(hello);
                        stalled.add(s);
                    } catch (IOException refused) {
                        closedAtOnce++;
                        s.close();
                    }
                }
                assertTrue(p.isAlive(), "alive with 6,000 stalled handshakes; stderr: " + p.stderr());
                assertEquals(200, established.send(health, HttpResponse.BodyHandlers.ofString()).statusCode(),
                        "a client connected before the flood is still served during it");
                for (Socket s : stalled) {
                    closedAtOnce += closedSoon(s) ? 1 : 0;
                }
                assertTrue(closedAtOnce >= 6_000 - capFor256m(), "the connections past the cap were closed at once: " + closedAtOnce);
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
            HttpClient fresh = HttpClient.newBuilder().sslContext(TestCertificates.ca().clientContext()).build();
            assertEquals(200, fresh.send(health, HttpResponse.BodyHandlers.ofString()).statusCode(), "new clients get in again");
            assertTrue(p.isAlive());
        }
    }

    /** The default cap of a 256 MB heap with TLS: a quarter of it at 80 KB a connection. */
    private static int capFor256m() {
        return (int) (256L * 1024 * 1024 / 4 / (80 * 1024));
    }

    /** True when the server closed {@code s} without waiting for its handshake deadline: a read ends within 1 s. */
    private static boolean closedSoon(Socket s) {
        try {
            s.setSoTimeout(1_000);
            InputStream in = s.getInputStream();
            return in.read() < 0;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    /** A TLS 1.2 client that asks for a second handshake on an established connection is refused. */
    @Test
    void clientInitiatedRenegotiationIsRefused() throws Exception {
        TestCertificates.Issued cert = TestCertificates.ca().issue("renego", "dns:localhost,ip:127.0.0.1");
        try (ChildProcess p = smallHeap("--port", "0", "--tls-cert", cert.chainPem().toString(), "--tls-key",
                cert.keyPem().toString())) {
            URI base = started(p);
            try (SSLSocket s = (SSLSocket) TestCertificates.ca().clientContext().getSocketFactory()
                    .createSocket(base.getHost(), base.getPort())) {
                s.setEnabledProtocols(new String[] {"TLSv1.2"});
                s.setSoTimeout(10_000);
                s.startHandshake();
                s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                byte[] first = new byte[12];
                assertEquals(12, s.getInputStream().readNBytes(first, 0, 12));
                assertEquals("HTTP/1.1 200", new String(first, StandardCharsets.US_ASCII));
                assertThrows(SSLException.class, () -> {
                    s.startHandshake();   // a renegotiation: TLS 1.2 allows it, loomgate does not
                    s.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    while (s.getInputStream().read() >= 0) {
                        // the answer to the first request, then the alert
                    }
                    throw new IOException("the connection ended without an alert");
                });
            }
            assertTrue(p.isAlive());
        }
    }
}
