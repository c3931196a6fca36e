package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.testing.MisbehavingUpstream;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.RawHttp;
import io.loomgate.testing.TestClient;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The reverse-proxy route and status passthrough, against a real upstream on 127.0.0.1. */
class ProxyTest {

    private static MisbehavingUpstream upstream;
    private static Loomgate gate;
    private static TestClient client;
    private static Path file;

    @BeforeAll
    static void start() throws Exception {
        upstream = MisbehavingUpstream.start();
        int refused = MisbehavingUpstream.refusedPort();
        file = Files.createTempFile("loomgate-proxy", ".json");
        Files.writeString(file, """
                {"upstreams": [
                   {"id": "up", "kind": "http", "url": "%s"},
                   {"id": "created", "kind": "http", "url": "%s"},
                   {"id": "missing", "kind": "http", "url": "%s"},
                   {"id": "gone", "kind": "http", "url": "http://127.0.0.1:%d/"},
                   {"id": "db", "kind": "simulated", "service": "db", "latency": "10ms"}],
                 "routes": [
                   {"path": "/px/*", "policy": "proxy", "upstreams": ["up"]},
                   {"path": "/tight/*", "policy": "proxy", "upstreams": ["up"], "timeout": "200ms"},
                   {"path": "/gone/*", "policy": "proxy", "upstreams": ["gone"]},
                   {"path": "/made", "policy": "single", "upstreams": ["created"], "status": "passthrough"},
                   {"path": "/missing", "policy": "single", "upstreams": ["missing"], "status": "passthrough"},
                   {"path": "/block", "policy": "single", "upstreams": ["db"]}]}
                """.formatted(upstream.url("/"), upstream.url("/created"), upstream.url("/status?code=404"), refused));
        gate = Loomgate.start(CommandLine.config("--port", "0", "--routes", file.toString()));
        client = new TestClient(gate.baseUri());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        gate.close();
        upstream.close();
        Files.deleteIfExists(file);
    }

    private static MisbehavingUpstream.Seen seen(HttpResponse<?> r) {
        return upstream.seenBy(r.headers().firstValue("X-Request-Id").orElseThrow()).getFirst();
    }

    @Test
    void itForwardsMethodPathQueryHeadersAndBody() throws Exception {
        HttpRequest post = HttpRequest.newBuilder(gate.uri("/px/inspect?x=1&y=a%20b"))
                .header("X-Custom", "kept").header("X-Forwarded-For", "10.9.8.7")
                .POST(HttpRequest.BodyPublishers.ofString("hello upstream")).build();
        HttpResponse<String> r = client.http().send(post, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        MisbehavingUpstream.Seen s = seen(r);
        assertEquals("POST", s.method);
        assertEquals("/inspect?x=1&y=a%20b", s.target, "the encoded suffix and query, as sent");
        assertEquals("hello upstream", s.body);
        assertEquals("kept", s.header("X-Custom"));
        assertEquals("127.0.0.1", s.header("X-Forwarded-For"), "a client's own X-Forwarded-For is replaced by default");
        assertEquals("http", s.header("X-Forwarded-Proto"));
        assertEquals("1.1 loomgate", s.header("Via"));
        assertTrue(s.header("traceparent").matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), s.header("traceparent"));
        long left = Long.parseLong(s.header("X-Loomgate-Deadline-Ms"));
        assertTrue(left > 2_000 && left <= 15_000, "a proxy's 15 s deadline, not the 2 s for fan-outs: " + left);
        assertTrue(r.body().contains("\"method\":\"POST\""), "the upstream's own body comes back: " + r.body());
    }

    @Test
    void theClientsHopByHopHeadersAreNeverForwarded() {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", gate.baseUri().getPort());
        RawHttp.Answer a = RawHttp.send(address, "GET /px/inspect HTTP/1.1\r\nHost: x\r\nX-Request-Id: hop-1\r\n"
                + "Connection: close, X-Private\r\nX-Private: secret\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\n"
                + "Proxy-Authorization: Basic abc\r\nX-Public: yes\r\n\r\n");
        assertEquals(200, a.status(), a.text());
        MisbehavingUpstream.Seen s = upstream.seenBy(a.header("X-Request-Id")).getFirst();
        assertEquals("yes", s.header("X-Public"));
        for (String hop : List.of("X-Private", "Keep-Alive", "TE", "Proxy-Authorization")) {
            assertNull(s.header(hop), hop + " was forwarded");
        }
        assertTrue(!"close".equals(s.header("Connection")), "the client's Connection header stays with its connection");
    }

    @Test
    void theUpstreamsStatusAndHeadersComeBackLessItsHopByHopOnes() {
        HttpResponse<String> r = client.get("/px/created");
        assertEquals(201, r.statusCode());
        assertEquals("{\"made\":true}", r.body());
        assertEquals(List.of("a=1", "b=2"), r.headers().allValues("Set-Cookie"));
        assertEquals("yes", r.headers().firstValue("X-Upstream").orElseThrow());
        assertFalse(r.headers().firstValue("X-Secret").isPresent(), "named in the upstream's Connection header");
        assertEquals("1.1 loomgate", r.headers().firstValue("Via").orElseThrow());
        assertTrue(r.headers().firstValue("X-Request-Id").isPresent());
    }

    @Test
    void aBodyIsStreamedAsItComesNotBufferedWhole() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = client.http().send(HttpRequest.newBuilder(gate.uri("/px/drip")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            byte[] first = in.readNBytes(65_536);
            long firstAt = System.nanoTime();
            long firstMs = (firstAt - t0) / 1_000_000;
            long rest = in.transferTo(java.io.OutputStream.nullOutputStream());
            long allMs = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("/px/drip: first 64 KiB after " + firstMs + " ms, all after " + allMs + " ms");
            assertEquals(65_536, first.length);
            assertEquals(65_536, rest);
            MisbehavingUpstream.Seen drip = upstream.seen().stream().filter(s -> s.path.equals("/drip")).reduce((a, b) -> b).orElseThrow();
            assertTrue(firstAt < drip.restSentAt, "the first half reached the client before the upstream sent the rest");
        }
    }

    @Test
    void aBodyLargerThanThePartLimitStreamsThroughWhole() {
        HttpResponse<String> r = client.get("/px/big?bytes=3000000");
        assertEquals(200, r.statusCode());
        assertEquals(3_000_002, r.body().length(), "3 MB, where an aggregated part is limited to 1 MiB");
    }

    @Test
    void headGetsTheHeadersOnly() throws Exception {
        try (RawConnection raw = new RawConnection(new InetSocketAddress("127.0.0.1", gate.baseUri().getPort()))) {
            RawConnection.Reply head = raw.exchange("HEAD /px/json HTTP/1.1\r\nHost: x\r\nX-Request-Id: head-1\r\n\r\n", true);
            assertEquals(200, head.status());
            assertEquals("23", head.header("Content-Length"), "the length a GET would have: " + head);
            assertEquals("HEAD", upstream.seenBy(head.header("X-Request-Id")).getFirst().method);
            // Had a body followed the HEAD answer, this GET on the same connection would read it as its head.
            RawConnection.Reply get = raw.get("/px/json");
            assertEquals(200, get.status(), get.toString());
            assertEquals("{\"a\":1,\"b\":[true,null]}", get.body());
        }
    }

    @Test
    void anUnreachableUpstreamIs502AndASlowOne504WithItsConnectionClosed() {
        HttpResponse<String> gone = client.get("/gone/x");
        assertEquals(502, gone.statusCode());
        Map<String, Object> body = TestClient.json(gone);
        assertEquals("bad_gateway", body.get("error"));
        assertEquals("gone: connection refused", body.get("message"), "the upstream's address stays inside");

        HttpResponse<String> slow = client.get("/tight/slow?ms=800");
        assertEquals(504, slow.statusCode());
        assertEquals("gateway_timeout", TestClient.json(slow).get("error"));
        MisbehavingUpstream.Seen s = seen(slow);
        MisbehavingUpstream.awaitClosed(s);
        assertTrue(s.closedAt >= s.receivedAt);
        assertEquals(0, s.answeredAt, "the upstream saw the exchange abandoned before its 800 ms were up");
    }

    @Test
    void passthroughAnswersWithTheUpstreamsOwnStatus() {
        HttpResponse<String> made = client.get("/made");
        assertEquals(201, made.statusCode(), made.body());
        assertEquals("ok", TestClient.json(made).get("status"));
        HttpResponse<String> missing = client.get("/missing");
        assertEquals(404, missing.statusCode(), missing.body());
        assertEquals("missing: answered HTTP 404",
                io.loomgate.testing.Aggregations.part(TestClient.json(missing), "missing").get("error"));
    }

    @Test
    void proxyRoutesAreCountedUnderTheirPrefixAndListedInTheIndex() {
        client.get("/px/json");
        // counted when the exchange ends, just after the client has the whole answer
        org.awaitility.Awaitility.await().until(() -> (Long) ((Map<?, ?>) ((Map<?, ?>) client.getJson("/metrics?format=json")
                .get("routes")).get("/px/*")).get("requests") >= 1);
        assertTrue(client.get("/").body().contains("{\"path\":\"/px/*\",\"policy\":\"proxy\",\"upstreams\":[\"up\"]}"));
    }
}
