package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A proxied answer keeps its upstream's {@code Date} on loomgate's server, over HTTP/1.1 and
 * HTTP/2, as HAProxy and Envoy pass it (RFC 9110 section 6.6.1: the origin's clock dates it); the
 * JDK's server always writes its own. An answer loomgate makes itself is dated by it, on HTTP/2 too.
 */
class ProxyDateTest {

    private static final String ORIGINS = "Tue, 15 Nov 1994 08:12:31 GMT";

    @Test
    void aProxiedAnswerKeepsItsUpstreamsDate(@TempDir Path dir) throws Exception {
        HttpServer up = new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        up.createContext("/", exchange -> {
            try (exchange) {
                byte[] body = "dated".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Date", ORIGINS);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        up.start();
        boolean jdk = "jdk".equals(System.getProperty("loomgate.server"));
        try (FileGate g = FileGate.start(dir, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + up.getAddress().getPort() + "/\"}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"up\"]}"))) {
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(g.gate().uri("/p/x")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                List<String> dates = r.headers().allValues("date");
                assertEquals(1, dates.size(), "one Date: " + dates);
                if (jdk) {
                    assertTrue(!dates.getFirst().equals(ORIGINS), "the JDK's server writes its own Date");
                    return;   // and speaks no HTTP/2
                }
                assertEquals(ORIGINS, dates.getFirst(), "the upstream's Date, as it sent it");
            }
            try (H2Wire w = new H2Wire(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()))) {
                w.request(1, "GET", "/p/x", true);
                H2Wire.Answer a = w.answer(1);
                assertEquals(200, a.status());
                assertEquals(ORIGINS, a.fields().get("date"), "over HTTP/2 too: " + a.fields());
                w.request(3, "GET", "/health", true);
                H2Wire.Answer own = w.answer(3);
                String date = own.fields().get("date");
                assertTrue(date != null, "loomgate's own HTTP/2 answer is dated: " + own.fields());
                assertTrue(ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).getYear() >= 2026, "dated now: " + date);
            }
        } finally {
            up.stop(0);
        }
    }
}
