package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.json.JsonParser;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.TestCertificates;
import io.loomgate.testing.TestClient;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API on its own listener (loopback), and what a reload swaps that a request cannot see:
 * the listener's certificate, for new handshakes only.
 */
class AdminApiTest {

    @TempDir
    Path dir;

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void configUpstreamsAndReloadAnswerJsonOnTheAdminPortOnly() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/users/7", "{\"name\":\"Ada\"}")) {
            Path file = dir.resolve("routes.json");
            String routes = """
                    {"upstreams": [{"id": "users", "kind": "http", "url": "%s?key=s3cret"}],
                     "routes": [{"path": "/users/{id}", "policy": "compose", "calls": {"user": {"upstream": "users",
                                 "path": "/users/{id}", "headers": {"Authorization": "Bearer t0ken", "X-Id": "{id}"}}}}]}"""
                    .formatted(api.url());
            Files.writeString(file, routes);
            try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--admin-port", "0", "--routes", file.toString()));
                 TestClient client = new TestClient(gate.baseUri())) {
                assertEquals("127.0.0.1", gate.adminUri("/").getHost(), "the admin API is on loopback");
                assertEquals(404, client.get("/admin/config").statusCode(), "and not on the main port");
                assertEquals(200, client.get("/users/7").statusCode());

                HttpResponse<String> config = send(HttpRequest.newBuilder(gate.adminUri("/admin/config")));
                assertEquals(200, config.statusCode(), config.body());
                Map<String, Object> c = JsonParser.parseObject(config.body());
                assertEquals(file.toString(), c.get("source"));
                assertTrue(((String) c.get("digest")).matches("sha256:[0-9a-f]{64}"), config.body());
                assertFalse(config.body().contains("s3cret") || config.body().contains("t0ken"), "secrets redacted: " + config.body());
                assertTrue(config.body().contains("?[redacted]") && config.body().contains("\"X-Id\":\"{id}\""), config.body());

                HttpResponse<String> upstreams = send(HttpRequest.newBuilder(gate.adminUri("/admin/upstreams")));
                Map<String, Object> users = (Map<String, Object>) JsonParser.parseObject(upstreams.body()).get("users");
                assertEquals("http", users.get("kind"), upstreams.body());
                assertEquals("none", users.get("breaker"));
                assertEquals(1L, ((Number) users.get("idleConnections")).longValue(), "the call's connection went back to the pool");
                assertEquals(List.of(), users.get("recentErrors"));

                Files.writeString(file, routes.replace("/users/{id}\", \"policy", "/people/{id}\", \"policy"));
                HttpResponse<String> reloaded = send(HttpRequest.newBuilder(gate.adminUri("/admin/reload"))
                        .POST(HttpRequest.BodyPublishers.noBody()));
                assertEquals(200, reloaded.statusCode(), reloaded.body());
                assertTrue(reloaded.body().contains("\"result\":\"reloaded\""), reloaded.body());
                assertEquals(200, client.get("/people/7").statusCode());
                assertNotEquals(c.get("digest"), JsonParser.parseObject(send(HttpRequest.newBuilder(gate.adminUri("/admin/config")))
                        .body()).get("digest"), "a new file, a new digest");

                Files.writeString(file, "{\"upstreams\": [");
                HttpResponse<String> refused = send(HttpRequest.newBuilder(gate.adminUri("/admin/reload"))
                        .POST(HttpRequest.BodyPublishers.noBody()));
                assertEquals(400, refused.statusCode());
                assertTrue(refused.body().contains("\"error\":\"reload_refused\"") && refused.body().contains("not valid JSON"),
                        refused.body());
                String after = send(HttpRequest.newBuilder(gate.adminUri("/admin/config"))).body();
                assertTrue(after.contains("\"lastError\":\"" + file + ": not valid JSON"), after);
                assertEquals(405, send(HttpRequest.newBuilder(gate.adminUri("/admin/reload"))).statusCode(), "a reload is a POST");
            }
        }
    }

    @Test
    void aReloadHandsNewHandshakesTheNewCertificateAndOpenConnectionsKeepTheirs() throws Exception {
        TestCertificates ca = TestCertificates.ca();
        TestCertificates.Issued first = ca.issue("reload-first", "dns:localhost,ip:127.0.0.1");
        TestCertificates.Issued second = ca.issue("reload-second", "dns:localhost,ip:127.0.0.1");
        Path cert = Files.copy(first.chainPem(), dir.resolve("cert.pem"));
        Path key = Files.copy(first.keyPem(), dir.resolve("key.pem"));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--tls-cert", cert.toString(),
                "--tls-key", key.toString()))) {
            SSLSocket open = handshake(gate.baseUri(), ca);
            assertTrue(subject(open).contains("reload-first"), subject(open));

            Files.copy(second.chainPem(), cert, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(second.keyPem(), key, StandardCopyOption.REPLACE_EXISTING);
            gate.reload("test");

            try (SSLSocket fresh = handshake(gate.baseUri(), ca)) {
                assertTrue(subject(fresh).contains("reload-second"), subject(fresh));
            }
            assertTrue(subject(open).contains("reload-first"), "the open connection keeps its certificate");
            assertTrue(get(open).startsWith("HTTP/1.1 200"), "and still serves");
            open.close();
        }
    }

    private static SSLSocket handshake(URI base, TestCertificates ca) throws Exception {
        SSLSocket s = (SSLSocket) ca.clientContext().getSocketFactory().createSocket(base.getHost(), base.getPort());
        s.startHandshake();
        return s;
    }

    private static String subject(SSLSocket s) throws Exception {
        return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }

    private static String get(SSLSocket s) throws Exception {
        OutputStream out = s.getOutputStream();
        out.write("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = s.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
}
