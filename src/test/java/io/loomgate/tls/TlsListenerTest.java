package io.loomgate.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.TestCertificates;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** loomgate serving HTTPS, with certificates made by the test's own CA: PEM or PKCS#12, and every way a start can fail. */
class TlsListenerTest {

    private static final TestCertificates CA = TestCertificates.ca();
    private static final TestCertificates.Issued SERVER = CA.issue("gateway", "dns:localhost,ip:127.0.0.1");

    private static HttpResponse<String> get(URI uri, SSLContext trust) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().sslContext(trust).version(HttpClient.Version.HTTP_1_1).build()) {
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** The protocol a client that offers only {@code protocols} ends up speaking with the gateway. */
    private static String handshake(Loomgate gate, String... protocols) throws Exception {
        try (SSLSocket s = (SSLSocket) CA.clientContext().getSocketFactory().createSocket("127.0.0.1", gate.baseUri().getPort())) {
            SSLParameters p = s.getSSLParameters();
            p.setProtocols(protocols);
            s.setSSLParameters(p);
            s.startHandshake();
            return s.getSession().getProtocol();
        }
    }

    @Test
    void pemFilesServeHttpsWithTls13AndTls12() throws Exception {
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--tls-cert", SERVER.chainPem().toString(),
                "--tls-key", SERVER.keyPem().toString()))) {
            assertEquals("https", gate.baseUri().getScheme());
            assertTrue(gate.listeningLine().contains("https://127.0.0.1:"), gate.listeningLine());
            HttpResponse<String> r = get(gate.uri("/aggregate"), CA.clientContext());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"status\":\"ok\""), r.body());
            assertEquals("TLSv1.3", handshake(gate, "TLSv1.3", "TLSv1.2"));
            assertEquals("TLSv1.2", handshake(gate, "TLSv1.2"));
            assertThrows(javax.net.ssl.SSLHandshakeException.class, () -> get(gate.uri("/health"),
                    TestCertificates.newCa("stranger").clientContext()), "a client that does not trust the CA refuses it");
        }
    }

    @Test
    void aPkcs12KeystoreTakesItsPasswordFromTheEnvironmentAndTheAdminPortStaysPlain() throws Exception {
        var run = (CommandLine.Run) CommandLine.parse(List.of("--port", "0", "--tls-keystore", SERVER.pkcs12().toString(),
                "--admin-port", "0"), Map.of("LOOMGATE_TLS_KEYSTORE_PASSWORD", TestCertificates.PASSWORD));
        try (Loomgate gate = Loomgate.start(run.config())) {
            assertEquals(200, get(gate.uri("/health"), CA.clientContext()).statusCode());
            URI admin = gate.adminUri("/livez");
            assertEquals("http", admin.getScheme(), "the admin listener is plain HTTP");
            try (HttpClient plain = HttpClient.newHttpClient()) {
                assertEquals(200, plain.send(HttpRequest.newBuilder(admin).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            }
        }
    }

    @Test
    void aProxyBehindTlsTellsItsUpstreamTheClientCameOverHttps(@TempDir Path dir) throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/echo", "{}")) {
            Path routes = dir.resolve("routes.json");
            Files.writeString(routes, """
                    {"upstreams": [{"id": "api", "kind": "http", "url": "%s/"}],
                     "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"]}]}""".formatted(api.url()));
            try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", routes.toString(),
                    "--tls-cert", SERVER.chainPem().toString(), "--tls-key", SERVER.keyPem().toString()))) {
                assertEquals(200, get(gate.uri("/api/echo"), CA.clientContext()).statusCode());
                assertEquals("https", api.requests().getFirst().headers().get("x-forwarded-proto"));
            }
        }
    }

    @Test
    void aCertificateOrKeyThatCannotServeStopsTheStartWithOneLine(@TempDir Path dir) throws Exception {
        TestCertificates.Issued other = CA.issue("other", "dns:localhost");
        TestCertificates.Issued expired = CA.issue("expired", "dns:localhost", "-3d");
        Path pkcs1 = dir.resolve("rsa.pem");
        Files.writeString(pkcs1, Files.readString(SERVER.keyPem()).replace("PRIVATE KEY", "RSA PRIVATE KEY"));
        Path empty = dir.resolve("empty.pem");
        Files.writeString(empty, "not a certificate\n");

        assertEquals(SERVER.chainPem() + ": holds no PEM private key (-----BEGIN PRIVATE KEY-----)",
                refused("--tls-cert", SERVER.chainPem().toString(), "--tls-key", SERVER.chainPem().toString()));
        assertEquals(empty + ": holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                refused("--tls-cert", empty.toString(), "--tls-key", SERVER.keyPem().toString()));
        assertTrue(refused("--tls-cert", SERVER.chainPem().toString(), "--tls-key", other.keyPem().toString())
                .startsWith(other.keyPem() + ": the key does not go with the certificate"));
        assertTrue(refused("--tls-cert", expired.chainPem().toString(), "--tls-key", expired.keyPem().toString())
                .startsWith(expired.chainPem() + ": the certificate expired on "));
        assertTrue(refused("--tls-cert", SERVER.chainPem().toString(), "--tls-key", pkcs1.toString())
                .contains("convert it to PKCS#8: openssl pkcs8 -topk8"));
        assertTrue(refused("--tls-keystore", SERVER.pkcs12().toString()).startsWith("--tls-keystore needs its password in"
                + " LOOMGATE_TLS_KEYSTORE_PASSWORD, which is not set (set it, to an empty value for a keystore without a"
                + " password)"), "no password given");
        UsageException wrong = assertThrows(UsageException.class, () -> Loomgate.start(((CommandLine.Run) CommandLine.parse(
                List.of("--port", "0", "--tls-keystore", SERVER.pkcs12().toString()),
                Map.of("LOOMGATE_TLS_KEYSTORE_PASSWORD", "wrong"))).config()).close());
        assertTrue(wrong.getMessage().startsWith(SERVER.pkcs12()
                + ": cannot be read as PKCS#12 with the password in LOOMGATE_TLS_KEYSTORE_PASSWORD"), wrong.getMessage());
        assertTrue(refused("--tls-cert", SERVER.chainPem().toString())
                .startsWith("--tls-cert needs --tls-key beside it (the PEM PKCS#8 private key), got '"));
        assertTrue(refused("--tls-cert", dir.resolve("missing.pem").toString(), "--tls-key", SERVER.keyPem().toString())
                .startsWith("--tls-cert must be a readable PEM file"));
    }

    private static String refused(String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of("--port", "0"));
        args.addAll(List.of(flags));
        UsageException e = assertThrows(UsageException.class, () -> {
            Config config = CommandLine.config(args.toArray(String[]::new));
            Loomgate.start(config).close();
        });
        assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e.getMessage();
    }
}
