package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.GoHttpbin;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proxy routes in front of a real upstream written elsewhere: go-httpbin, built by
 * {@code scripts/test}. What arrived ({@code /anything}), a redirect brought back through the gateway
 * ({@code /redirect-to}), headers passed ({@code /response-headers}), an early 401 to a 3 MB upload
 * ({@code /status/401}), a gzipped answer passed untouched ({@code /gzip}), and an answer slower than
 * the 2 s meant for fan-outs ({@code /delay/3}).
 */
class GoHttpbinTest {

    @TempDir
    static Path dir;
    private static GoHttpbin httpbin;
    private static FileGate gate;

    @BeforeAll
    static void start() throws Exception {
        httpbin = GoHttpbin.start(16 * 1024 * 1024);
        gate = FileGate.start(dir, "{\"id\": \"httpbin\", \"kind\": \"http\", \"url\": \"" + httpbin.url() + "/\"}",
                List.of("{\"path\": \"/hb/*\", \"policy\": \"proxy\", \"upstreams\": [\"httpbin\"], \"maxBodyBytes\": \"8MB\","
                        + " \"requestHeaders\": {\"set\": {\"X-Route\": \"hb\"}}}"));
    }

    @AfterAll
    static void stop() {
        if (gate != null) {
            gate.close();
        }
        if (httpbin != null) {
            httpbin.close();
        }
    }

    @SuppressWarnings("unchecked")
    private static String first(Map<String, Object> headers, String name) {
        return ((List<Object>) headers.get(name)).getFirst().toString();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anythingShowsWhatArrived() throws Exception {
        HttpResponse<String> r = gate.client().get("/hb/anything/x?q=1", "X-Test", "a");
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> seen = JsonParser.parseObject(r.body());
        assertEquals("GET", seen.get("method"));
        assertEquals(httpbin.url() + "/anything/x?q=1", seen.get("url"), "the path below the prefix, the query as sent");
        Map<String, Object> headers = (Map<String, Object>) seen.get("headers");
        assertEquals("127.0.0.1:" + httpbin.port(), first(headers, "Host"), "the upstream's own Host, as nginx sends");
        assertEquals("a", first(headers, "X-Test"));
        assertEquals("hb", first(headers, "X-Route"), "the route's requestHeaders");
        assertEquals("/hb", first(headers, "X-Forwarded-Prefix"));
        assertEquals("127.0.0.1:" + gate.gate().baseUri().getPort(), first(headers, "X-Forwarded-Host"));
        assertEquals("127.0.0.1", first(headers, "X-Forwarded-For"));
        assertEquals("http", first(headers, "X-Forwarded-Proto"));
    }

    @Test
    void aRedirectToTheUpstreamComesBackThroughTheGateway() throws Exception {
        HttpResponse<String> r = gate.client().get("/hb/redirect-to?url=" + httpbin.url() + "/get");
        assertEquals(302, r.statusCode(), r.body());
        assertEquals(gate.gate().baseUri().resolve("/hb/get").toString(), r.headers().firstValue("Location").orElse(null),
                "never the upstream's address");
    }

    @Test
    void headersTheUpstreamSetsArePassedOn() throws Exception {
        HttpResponse<String> r = gate.client().get("/hb/response-headers?X-Custom=1");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("1", r.headers().firstValue("X-Custom").orElse(null));
        assertTrue(r.headers().firstValue("Via").orElse("").contains("loomgate"), r.headers().toString());
    }

    @Test
    void anEarly401ToALargeUploadIsPassedOn() throws Exception {
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = gate.client().http().send(HttpRequest.newBuilder(gate.gate().uri("/hb/status/401"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[3 * 1024 * 1024])).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, r.statusCode(), "try " + i + ": " + r.body());
            assertEquals("Basic realm=\"Fake Realm\"", r.headers().firstValue("WWW-Authenticate").orElse(null));
        }
    }

    @Test
    void aGzippedAnswerPassesUntouched() throws Exception {
        HttpResponse<byte[]> r = gate.client().http().send(HttpRequest.newBuilder(gate.gate().uri("/hb/gzip"))
                .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElse(null));
        String json = new String(new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(Boolean.TRUE, JsonParser.parseObject(json).get("gzipped"), json);
    }

    @Test
    void anAnswerSlowerThanAFanOutsDeadlineIsWaitedFor() throws Exception {
        HttpResponse<String> r = gate.client().get("/hb/delay/3");
        assertEquals(200, r.statusCode(), "a proxy's 15 s, not --timeout's 2 s: " + r.body());
    }
}
