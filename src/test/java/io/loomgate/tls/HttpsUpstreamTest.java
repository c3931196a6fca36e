package io.loomgate.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.config.UsageException;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.TestCertificates;
import io.loomgate.testing.TestClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code https://} upstreams, against test servers whose certificates the test's CA made: trusted
 * through {@code caFile}, kept alive, with SNI and the hostname checked; every certificate problem a
 * 502 that says what is wrong; and cancellation seen by the upstream as over plain HTTP.
 */
class HttpsUpstreamTest {

    private static final TestCertificates CA = TestCertificates.ca();
    private static final TestCertificates.Issued LOCAL = CA.issue("upstream", "dns:localhost,ip:127.0.0.1");

    @TempDir
    Path dir;

    private Loomgate gate(String upstreams, String routes) throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, "{\"upstreams\": [" + upstreams + "], \"routes\": [" + routes + "]}");
        return Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
    }

    private static String upstream(String id, String url, String extra) {
        return "{\"id\": \"" + id + "\", \"kind\": \"http\", \"url\": \"" + url + "\"" + extra + "}";
    }

    @Test
    void aTrustedUpstreamIsCalledOverOneKeptAliveConnectionWithSniAndThroughTheProxy() throws Exception {
        try (ApiUpstream api = ApiUpstream.startTls(LOCAL.serverContext()).answer("/users/7", "{\"name\":\"Ada\"}")) {
            String url = api.url().replace("127.0.0.1", "localhost");
            String ca = ", \"caFile\": \"" + LOCAL.caPem() + "\"";
            try (Loomgate gate = gate(upstream("users", url + "/users/{id}", ca) + "," + upstream("api", url + "/", ca),
                    """
                    {"path": "/users/{id}", "policy": "single", "upstreams": ["users"], "answer": "value"},
                    {"path": "/api/*", "policy": "proxy", "upstreams": ["api"]}""");
                 TestClient client = new TestClient(gate.baseUri())) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse<String> r = client.get("/users/7");
                    assertEquals(200, r.statusCode(), r.body());
                    assertEquals("{\"name\":\"Ada\"}", r.body());
                }
                assertEquals(1, api.connections(), "one TLS connection, kept alive for all three calls");
                assertEquals(List.of("localhost"), api.serverNames(), "SNI names the host");
                assertEquals("{\"name\":\"Ada\"}", client.get("/api/users/7").body(), "the proxy speaks TLS too");
            }
        }
    }

    @Test
    void everyCertificateProblemIsA502ThatSaysWhatIsWrong() throws Exception {
        TestCertificates.Issued elsewhere = CA.issue("elsewhere", "dns:example.org");
        TestCertificates.Issued expired = CA.issue("stale", "dns:localhost,ip:127.0.0.1", "-3d");
        try (ApiUpstream untrusted = ApiUpstream.startTls(LOCAL.serverContext()).answer("/x", "1");
             ApiUpstream misnamed = ApiUpstream.startTls(elsewhere.serverContext()).answer("/x", "1");
             ApiUpstream old = ApiUpstream.startTls(expired.serverContext()).answer("/x", "1");
             PlainHttp plain = new PlainHttp()) {
            String ca = ", \"caFile\": \"" + LOCAL.caPem() + "\"";
            try (Loomgate gate = gate(String.join(",", upstream("untrusted", untrusted.url() + "/x", ""),
                            upstream("misnamed", misnamed.url() + "/x", ca), upstream("old", old.url() + "/x", ca),
                            upstream("plain", "https://127.0.0.1:" + plain.port() + "/x", ca)),
                    """
                    {"path": "/untrusted", "policy": "single", "upstreams": ["untrusted"]},
                    {"path": "/misnamed", "policy": "single", "upstreams": ["misnamed"]},
                    {"path": "/old", "policy": "single", "upstreams": ["old"]},
                    {"path": "/plain", "policy": "single", "upstreams": ["plain"]}""");
                 TestClient client = new TestClient(gate.baseUri())) {
                assertFailure(client, "/untrusted", "untrusted: certificate for the upstream is not trusted (no path to a trusted CA; see caFile)");
                assertFailure(client, "/misnamed", "misnamed: the upstream's certificate does not name its host");
                assertFailure(client, "/old", "old: certificate for the upstream has expired");
                assertFailure(client, "/plain", "plain: the upstream did not answer with TLS");
                assertEquals(List.of(), untrusted.requests(), "nothing was sent to a server that was not trusted");
            }
        }
    }

    /** A plain HTTP server, as nginx is on a plain port: whatever comes, it answers 400 in plain text and closes. */
    private static final class PlainHttp implements AutoCloseable {
        private final ServerSocket server;

        PlainHttp() throws IOException {
            server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.getInputStream().read(new byte[1024]);
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException closed) {
                        // the next one, or the end
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static void assertFailure(TestClient client, String path, String reason) {
        HttpResponse<String> r = client.get(path);
        assertEquals(502, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"error\":\"" + reason + "\""), r.body());
    }

    @Test
    void aCancelledCallClosesItsTlsConnectionUnderTheUpstream() throws Exception {
        try (ApiUpstream api = ApiUpstream.startTls(LOCAL.serverContext()).hold("/slow")) {
            try (Loomgate gate = gate(upstream("slow", api.url() + "/slow", ", \"caFile\": \"" + LOCAL.caPem() + "\""),
                    "{\"path\": \"/slow\", \"policy\": \"single\", \"upstreams\": [\"slow\"], \"timeout\": \"2s\"}");   // the handshake and the request reach it first, however busy the machine
                 TestClient client = new TestClient(gate.baseUri())) {
                assertEquals(504, client.get("/slow").statusCode());
                api.await("closed /slow");
            }
        }
    }

    @Test
    void aCaFileIsForHttpsAndMustHoldACertificate() throws Exception {
        Path notPem = dir.resolve("ca.txt");
        Files.writeString(notPem, "nothing here");
        UsageException http = assertThrows(UsageException.class, () -> gate(
                upstream("a", "http://127.0.0.1:1/", ", \"caFile\": \"" + LOCAL.caPem() + "\""), ""));
        assertTrue(http.getMessage().endsWith("upstreams[0].caFile is only for an https:// URL; got '" + LOCAL.caPem() + "'"),
                http.getMessage());
        UsageException empty = assertThrows(UsageException.class, () -> gate(
                upstream("a", "https://127.0.0.1:1/", ", \"caFile\": \"" + notPem + "\""), ""));
        assertTrue(empty.getMessage().contains("upstreams[0].caFile must be a readable PEM file of CA certificates: " + notPem
                + ": holds no PEM certificate"), empty.getMessage());
    }
}
