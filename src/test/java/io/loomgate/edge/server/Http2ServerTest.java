package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import io.loomgate.http.Headers;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 with prior knowledge (h2c) on loomgate's server, on the port HTTP/1.1 uses: each stream an
 * exchange the gateway's handler takes as it takes an HTTP/1.1 request, answered in frames, within
 * the client's windows; a stream reset, or the connection lost, cancels the streams' work. The
 * bounds and the floods are {@link Http2DefenceTest}'s.
 */
class Http2ServerTest {

    private final Http2Fixture fixture = new Http2Fixture();

    @AfterEach
    void stop() {
        fixture.stop();
    }

    @Test
    void aRequestWithPriorKnowledgeIsAnExchangeAnsweredInFrames() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            assertTrue(w.serverSettings.values().contains(new Frame.Setting(Frame.Setting.MAX_CONCURRENT_STREAMS, 100)),
                    w.serverSettings.toString());
            w.request(1, "GET", "/hello", true);
            H2Wire.Answer a = w.answer(1);
            assertNull(a.reset());
            assertEquals(200, a.status());
            assertEquals("hello HTTP/2.0 example.test", new String(a.body()), ":authority is the Host the handler sees");
            assertEquals("yes", a.fields().get("x-answer"));
            assertEquals(String.valueOf(a.body().length), a.fields().get("content-length"));
            assertFalse(a.fields().containsKey("connection"), "HTTP/2 forbids connection-specific fields: " + a.fields());
            assertEquals("HTTP/2.0", fixture.seen.getFirst().protocol());

            w.request(3, "POST", "/echo", false, "content-length", "5");
            w.send(new Frame.Data(3, "abc".getBytes(), false, 3));
            w.send(new Frame.Data(3, "de".getBytes(), true, 2));
            assertEquals("abcde", new String(w.answer(3).body()), "a second stream on the same connection");
        }
    }

    @Test
    void anAnswerEndsWithItsTrailersAfterItsBody() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "POST", "/trailers", true, "content-type", "application/grpc", "te", "trailers");
            Frame.Headers head = assertInstanceOf(Frame.Headers.class, w.next());
            assertFalse(head.endStream());
            Frame.Data data = assertInstanceOf(Frame.Data.class, w.next());
            assertArrayEquals(new byte[] {0, 0, 0, 0, 2, 8, 1}, data.data());
            assertFalse(data.endStream(), "the body does not end the stream: its trailers do");
            Frame.Headers trailers = assertInstanceOf(Frame.Headers.class, w.next());
            assertTrue(trailers.endStream());
            assertEquals("0", w.fields(1).get("grpc-status"));
            assertEquals("fine", w.fields(1).get("grpc-message"));
            assertEquals("application/grpc", w.fields(1).get("content-type"));
        }
    }

    @Test
    void aStreamedAnswersHeadGoesBeforeItsBodyHasCome() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "GET", "/stream", true);
            Frame first = w.next();
            Frame.Headers head = assertInstanceOf(Frame.Headers.class, first, "the head, while the body waits");
            assertFalse(head.endStream());
            fixture.released.release();
            assertEquals("late body", new String(w.answer(1).body()));
        }
    }

    @Test
    void aDeclaredBodyGoesInOneDataFrameThatEndsTheStreamWrittenWholeOrInPieces() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            for (int id = 1; id <= 3; id += 2) {
                String path = id == 1 ? "/hello" : "/pieces";
                w.request(id, "GET", path, true);
                Frame.Headers head = assertInstanceOf(Frame.Headers.class, w.next());
                assertFalse(head.endStream(), path);
                Frame.Data data = assertInstanceOf(Frame.Data.class, w.next(), path);
                assertTrue(data.endStream(), path + ": the last octet of the declared length ends the stream");
                assertEquals(id == 1 ? "hello HTTP/2.0 example.test" : "abcdefghi", new String(data.data()));
                assertEquals(String.valueOf(data.data().length), w.fields(id).get("content-length"));
            }
        }
    }

    @Test
    void aBodyShortOfItsContentLengthResetsTheStreamAndTheConnectionGoesOn() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "POST", "/echo", false, "content-length", "10");
            w.send(new Frame.Data(1, "abc".getBytes(), true, 3));
            H2Wire.Answer a = w.answer(1);
            assertNotNull(a.reset(), "malformed: " + a);
            assertEquals(ErrorCode.PROTOCOL_ERROR, a.reset().code());
            w.request(3, "GET", "/hello", true);
            assertEquals(200, w.answer(3).status());
        }
    }

    @Test
    void anAnswerLargerThanTheClientsWindowWaitsForItsWindowUpdates() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "GET", "/big", true);
            long before = 0;
            Frame f;
            while (before < 65_535 && (f = w.next()) != null) {
                if (f instanceof Frame.Data d) {
                    before += d.data().length;
                }
            }
            w.send(new Frame.Ping(false, 42));
            for (f = w.next(); !(f instanceof Frame.Ping); f = w.next()) {
                assertFalse(f instanceof Frame.Data, "DATA past the window: " + f);
            }
            assertEquals(65_535, before, "the whole initial window, and not an octet more");
            assertEquals(new Frame.Ping(true, 42), f);
            w.send(new Frame.WindowUpdate(0, 1 << 20));
            w.send(new Frame.WindowUpdate(1, 1 << 20));
            assertEquals(200_000 - 65_535, w.answer(1).body().length, "the rest, once the windows opened");
        }
    }

    @Test
    void aClientThatNeverOpensItsWindowTimesOutItsStreamAndHoldsNoBuffer() throws Exception {
        InetSocketAddress address = fixture.start(new ServerLimits(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(1), 0, 0,
                io.loomgate.config.AddressRanges.NONE));
        try (H2Wire w = new H2Wire(address, List.of(new Frame.Setting(Frame.Setting.INITIAL_WINDOW_SIZE, 0)))) {
            w.request(1, "GET", "/big", true);
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status(), "the head goes out: HEADERS are not flow-controlled");
            assertEquals(0, a.body().length, "no DATA while the window is shut");
            assertEquals(ErrorCode.INTERNAL_ERROR, a.reset().code(), "after the idle timeout the stream is reset, its answer never whole");
            w.request(3, "HEAD", "/hello", true);
            assertEquals(200, w.answer(3).status(), "the connection goes on");
        }
    }

    @Test
    void aStreamTheClientResetsIsCancelledAndTheOthersGoOn() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "GET", "/block-1", true);
            assertTrue(fixture.blocked.await(20, TimeUnit.SECONDS));
            w.send(new Frame.RstStream(1, ErrorCode.CANCEL));
            w.request(3, "GET", "/hello", true);
            assertEquals(200, w.answer(3).status());
            Http2Fixture.waitFor(() -> fixture.interrupted.contains("/block-1"));
            assertEquals(List.of("/block-1"), fixture.hooksRun, "the gateway's hook for a client gone ran");
        }
    }

    @Test
    void theConnectionLostCancelsEveryStreamInItsScope() throws Exception {
        H2Wire w = new H2Wire(fixture.start());
        for (int id = 1; id <= 5; id += 2) {
            w.request(id, "GET", "/block-" + id, true);
            fixture.started.computeIfAbsent("/block-" + id, p -> new CountDownLatch(1)).await(20, TimeUnit.SECONDS);
        }
        w.close();
        Http2Fixture.waitFor(() -> fixture.interrupted.size() == 3);
        assertEquals(java.util.Set.of("/block-1", "/block-3", "/block-5"), java.util.Set.copyOf(fixture.interrupted));
    }

    @Test
    void aStopSaysGoAwayAndStillAnswersTheStreamsItHas() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.request(1, "GET", "/block-s", true);
            assertTrue(fixture.blocked.await(20, TimeUnit.SECONDS));
            Thread stopper = Thread.ofVirtual().start(() -> fixture.server.stop(30));
            Frame f = w.next();
            Frame.GoAway g = assertInstanceOf(Frame.GoAway.class, f);
            assertEquals(ErrorCode.NO_ERROR, g.code());
            assertEquals(1, g.lastStreamId());
            fixture.released.release();
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status());
            stopper.join();
            fixture.server = null;
        }
    }

    @Test
    void aContextServedThroughTheApiGetsEachStreamAsAnHttpExchangeThroughItsFilterAndAuthenticator() throws Exception {
        InetSocketAddress address = fixture.start();
        List<String> filtered = new CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpContext api = fixture.server.createContext("/api", exchange -> {
            byte[] body = (exchange.getProtocol() + " " + exchange.getRequestMethod() + " " + exchange.getRequestURI()
                    + " " + exchange.getPrincipal().getUsername() + " " + new String(exchange.getRequestBody().readAllBytes())).getBytes();
            exchange.getResponseHeaders().add("X-Api", "yes");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        api.getFilters().add(new com.sun.net.httpserver.Filter() {
            @Override
            public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                filtered.add(exchange.getRequestHeaders().getFirst("x-trace"));
                chain.doFilter(exchange);
            }

            @Override
            public String description() {
                return "records";
            }
        });
        api.setAuthenticator(new com.sun.net.httpserver.BasicAuthenticator("h2") {
            @Override
            public boolean checkCredentials(String user, String password) {
                return user.equals("ann") && password.equals("secret");
            }
        });
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("ann:secret".getBytes());
        try (H2Wire w = new H2Wire(address)) {
            w.request(1, "POST", "/api/x?q=1", false, "authorization", basic, "x-trace", "t-1", "content-length", "2");
            w.send(new Frame.Data(1, "hi".getBytes(), true, 2));
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status());
            assertEquals("HTTP/2.0 POST /api/x?q=1 ann hi", new String(a.body()));
            assertEquals("yes", a.fields().get("x-api"));
            assertEquals(List.of("t-1"), filtered);

            w.request(3, "GET", "/api/x", true, "authorization", "Basic " + java.util.Base64.getEncoder().encodeToString("ann:no".getBytes()));
            H2Wire.Answer refused = w.answer(3);
            assertEquals(401, refused.status(), "the authenticator's answer");
            assertTrue(refused.fields().containsKey("www-authenticate"), refused.fields().toString());
            w.request(5, "GET", "/hello", true);
            assertArrayEquals("hello HTTP/2.0 example.test".getBytes(), w.answer(5).body(), "loomgate's own exchange beside it");
        }
    }

    @Test
    void overTlsTheApisExchangeIsAnHttpsExchangeWithItsSession() throws Exception {
        io.loomgate.testing.TestCertificates ca = io.loomgate.testing.TestCertificates.ca();
        com.sun.net.httpserver.HttpsServer tls = new LoomgateServers(ServerLimits.DEFAULTS)
                .createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0);
        tls.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(
                ca.issue("h2-api", "dns:localhost,ip:127.0.0.1").serverContext()));
        tls.createContext("/", exchange -> {
            byte[] body = (exchange.getProtocol() + " " + (exchange instanceof com.sun.net.httpserver.HttpsExchange h
                    ? h.getSSLSession().getProtocol() : "not https")).getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tls.start();
        fixture.server = tls;
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().sslContext(ca.clientContext()).build()) {
            java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("https://127.0.0.1:" + tls.getAddress().getPort() + "/x")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(java.net.http.HttpClient.Version.HTTP_2, r.version());
            assertTrue(r.body().startsWith("HTTP/2.0 TLSv1."), r.body());
        }
    }
}
