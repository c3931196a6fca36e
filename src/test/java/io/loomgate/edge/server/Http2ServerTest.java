package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 with prior knowledge (h2c) on loomgate's server, on the port HTTP/1.1 uses: each stream an
 * exchange the gateway's handler takes as it takes an HTTP/1.1 request, answered in frames, within
 * the client's windows; a stream reset, or the connection lost, cancels the streams' work.
 */
class Http2ServerTest {

    private HttpServer server;
    private final List<Exchange> seen = new CopyOnWriteArrayList<>();
    /** Paths under /block wait here until released, or interrupted. */
    private final Semaphore released = new Semaphore(0);
    private final CountDownLatch blocked = new CountDownLatch(1);
    private final List<String> interrupted = new CopyOnWriteArrayList<>();
    private final List<String> hooksRun = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, CountDownLatch> started = new ConcurrentHashMap<>();

    private final ExchangeHandler handler = new ExchangeHandler() {
        @Override
        public void handle(Exchange x) throws IOException {
            seen.add(x);
            String path = x.uri().getPath();
            if (path.startsWith("/block")) {
                x.onClientGone(() -> hooksRun.add(path));
                started.computeIfAbsent(path, p -> new CountDownLatch(1)).countDown();
                blocked.countDown();
                try {
                    released.acquire();
                } catch (InterruptedException e) {
                    interrupted.add(path);
                    x.close();
                    return;
                }
            }
            if (path.equals("/trailers")) {
                io.loomgate.http.AnswerWriter.Wire wire = (io.loomgate.http.AnswerWriter.Wire) x;
                wire.head(200, 0, Headers.of("content-type", "application/grpc"));
                wire.output().write(new byte[] {0, 0, 0, 0, 2, 8, 1});
                ((io.loomgate.http.Trailers) x).trailers(Headers.of("grpc-status", "0", "grpc-message", "fine"));
                x.close();
                return;
            }
            if (path.equals("/pieces")) {   // a declared length written in three pieces
                io.loomgate.http.AnswerWriter.Wire wire = (io.loomgate.http.AnswerWriter.Wire) x;
                wire.head(200, 9, Headers.of("content-type", "text/plain"));
                for (String piece : List.of("abc", "def", "ghi")) {
                    wire.output().write(piece.getBytes());
                }
                x.close();
                return;
            }
            if (path.equals("/stream")) {
                x.write(Response.streamed(200, new Response.Stream(Headers.of("content-type", "text/plain"), -1, new Response.Writer() {
                    @Override
                    public void writeTo(java.io.OutputStream out) throws IOException {
                        out.flush();   // the head goes now, as a proxy's does before the upstream's body has come
                        try {
                            released.acquire();
                        } catch (InterruptedException e) {
                            throw new java.io.InterruptedIOException();
                        }
                        out.write("late body".getBytes());
                    }

                    @Override
                    public void discard() {
                    }
                })), false);
                x.close();
                return;
            }
            byte[] body = switch (path) {
                case "/echo" -> x.body().readAllBytes();
                case "/big" -> new byte[200_000];
                default -> ("hello " + x.protocol() + " " + x.headers().first("host")).getBytes();
            };
            if (path.equals("/big")) {
                java.util.Arrays.fill(body, (byte) 'b');
            }
            x.write(new Response(200, "text/plain", body, Headers.of("Connection", "close", "X-Answer", "yes")), x.method().equals("HEAD"));
            x.close();
        }

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        }
    };

    private InetSocketAddress start() throws IOException {
        server = new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.start();
        return server.getAddress();
    }

    @AfterEach
    void stop() {
        released.release(1000);
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aRequestWithPriorKnowledgeIsAnExchangeAnsweredInFrames() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
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
            assertEquals("HTTP/2.0", seen.getFirst().protocol());

            w.request(3, "POST", "/echo", false, "content-length", "5");
            w.send(new Frame.Data(3, "abc".getBytes(), false, 3));
            w.send(new Frame.Data(3, "de".getBytes(), true, 2));
            assertEquals("abcde", new String(w.answer(3).body()), "a second stream on the same connection");
        }
    }

    @Test
    void anAnswerEndsWithItsTrailersAfterItsBody() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
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
        try (H2Wire w = new H2Wire(start())) {
            w.request(1, "GET", "/stream", true);
            Frame first = w.next();
            Frame.Headers head = assertInstanceOf(Frame.Headers.class, first, "the head, while the body waits");
            assertFalse(head.endStream());
            released.release();
            assertEquals("late body", new String(w.answer(1).body()));
        }
    }

    @Test
    void aDeclaredBodyGoesInOneDataFrameThatEndsTheStreamWrittenWholeOrInPieces() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
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
        try (H2Wire w = new H2Wire(start())) {
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
        try (H2Wire w = new H2Wire(start())) {
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
        server = new LoomgateServers(new ServerLimits(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(1), 0, 0,
                io.loomgate.config.AddressRanges.NONE)).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.start();
        try (H2Wire w = new H2Wire(server.getAddress(), List.of(new Frame.Setting(Frame.Setting.INITIAL_WINDOW_SIZE, 0)))) {
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
        try (H2Wire w = new H2Wire(start())) {
            w.request(1, "GET", "/block-1", true);
            assertTrue(blocked.await(20, TimeUnit.SECONDS));
            w.send(new Frame.RstStream(1, ErrorCode.CANCEL));
            w.request(3, "GET", "/hello", true);
            assertEquals(200, w.answer(3).status());
            waitFor(() -> interrupted.contains("/block-1"));
            assertEquals(List.of("/block-1"), hooksRun, "the gateway's hook for a client gone ran");
        }
    }

    @Test
    void theConnectionLostCancelsEveryStreamInItsScope() throws Exception {
        H2Wire w = new H2Wire(start());
        for (int id = 1; id <= 5; id += 2) {
            w.request(id, "GET", "/block-" + id, true);
            started.computeIfAbsent("/block-" + id, p -> new CountDownLatch(1)).await(20, TimeUnit.SECONDS);
        }
        w.close();
        waitFor(() -> interrupted.size() == 3);
        assertEquals(java.util.Set.of("/block-1", "/block-3", "/block-5"), java.util.Set.copyOf(interrupted));
    }

    @Test
    void theStreamPastTheConcurrencyLimitIsRefused() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
            for (int i = 0; i < 100; i++) {
                w.request(1 + 2 * i, "GET", "/block-" + i, true);
            }
            waitFor(() -> seen.size() == 100);
            w.request(201, "GET", "/hello", true);
            H2Wire.Answer a = w.answer(201);
            assertEquals(ErrorCode.REFUSED_STREAM, a.reset().code());
            released.release(100);
            for (int i = 0; i < 100; i++) {
                assertEquals(200, w.answer(1 + 2 * i).status());
            }
            w.request(203, "GET", "/hello", true);
            assertEquals(200, w.answer(203).status(), "once streams ended, a new one is served");
        }
    }

    @Test
    void streamsOpenedAndResetFasterThanTheBucketAllowsEndTheConnection() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
            java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < 3_000; i++) {
                int id = 1 + 2 * i;
                burst.writeBytes(io.loomgate.http2.FrameWriter.encode(new Frame.Headers(id, w.block("GET", "/block-r"), true, true, null)));
                burst.writeBytes(io.loomgate.http2.FrameWriter.encode(new Frame.RstStream(id, ErrorCode.CANCEL)));
            }
            w.sendRaw(burst.toByteArray());
            Frame.GoAway g = w.goAway();
            assertNotNull(g);
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, g.code());
        }
    }

    @Test
    void aHeaderBlockSpreadOverEndlessContinuationsEndsTheConnection() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
            w.send(new Frame.Headers(1, w.block("GET", "/hello"), true, false, null));
            for (int i = 0; i < 100; i++) {
                w.send(new Frame.Continuation(1, new byte[0], false));
            }
            Frame.GoAway g = w.goAway();
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, g.code());
            assertTrue(seen.isEmpty());
        }
    }

    /** Frames that cost the server work and the client nothing, each sent far past its bound in one write. */
    @Test
    void pingSettingsPriorityWindowUpdateAndEmptyDataFloodsEndTheConnection() throws Exception {
        InetSocketAddress address = start();
        java.util.Map<String, java.util.function.IntFunction<Frame>> floods = new java.util.LinkedHashMap<>();
        floods.put("ping", i -> new Frame.Ping(false, i));
        floods.put("settings", i -> new Frame.Settings(false, List.of()));
        floods.put("priority", i -> new Frame.Priority(1001 + 2 * i, 0, false, 16));
        floods.put("window_update", i -> new Frame.WindowUpdate(0, 1));
        for (var flood : floods.entrySet()) {
            try (H2Wire w = new H2Wire(address)) {
                java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < 2_000; i++) {
                    burst.writeBytes(io.loomgate.http2.FrameWriter.encode(flood.getValue().apply(i)));
                }
                w.sendRaw(burst.toByteArray());
                Frame.GoAway g = w.goAway();
                assertEquals(ErrorCode.ENHANCE_YOUR_CALM, g.code(), flood.getKey());
            }
        }
        try (H2Wire w = new H2Wire(address)) {
            w.request(1, "POST", "/echo", false);
            for (int i = 0; i < 50; i++) {
                w.send(new Frame.Data(1, new byte[0], false, 0));
            }
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, w.goAway().code(), "empty DATA");
        }
        try (H2Wire w = new H2Wire(address)) {
            for (int i = 0; i < 10; i++) {
                w.send(new Frame.WindowUpdate(0, 1));
                w.send(new Frame.Ping(false, i));
                w.send(new Frame.Priority(3, 0, false, 16));
                w.send(new Frame.Settings(false, List.of()));
            }
            w.request(1, "GET", "/hello", true);
            assertEquals(200, w.answer(1).status(), "a few of each are no flood");
        }
    }

    @Test
    void pingsAreAnsweredAndAFirstFrameThatIsNotSettingsIsAProtocolError() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
            w.send(new Frame.Ping(false, 0x0102030405060708L));
            assertEquals(new Frame.Ping(true, 0x0102030405060708L), w.next());
        }
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.getAddress().getPort())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(io.loomgate.http2.FrameReader.PREFACE);
            s.getOutputStream().write(io.loomgate.http2.FrameWriter.encode(new Frame.Ping(false, 1)));
            io.loomgate.http2.FrameReader r = new io.loomgate.http2.FrameReader(s.getInputStream());
            assertInstanceOf(Frame.Settings.class, r.read());
            assertInstanceOf(Frame.WindowUpdate.class, r.read());
            Frame.GoAway g = assertInstanceOf(Frame.GoAway.class, r.read());
            assertEquals(ErrorCode.PROTOCOL_ERROR, g.code());
        }
    }

    @Test
    void aStopSaysGoAwayAndStillAnswersTheStreamsItHas() throws Exception {
        try (H2Wire w = new H2Wire(start())) {
            w.request(1, "GET", "/block-s", true);
            assertTrue(blocked.await(20, TimeUnit.SECONDS));
            Thread stopper = Thread.ofVirtual().start(() -> server.stop(30));
            Frame f = w.next();
            Frame.GoAway g = assertInstanceOf(Frame.GoAway.class, f);
            assertEquals(ErrorCode.NO_ERROR, g.code());
            assertEquals(1, g.lastStreamId());
            released.release();
            H2Wire.Answer a = w.answer(1);
            assertEquals(200, a.status());
            stopper.join();
            server = null;
        }
    }

    @Test
    void aContextServedThroughTheApiGetsEachStreamAsAnHttpExchangeThroughItsFilterAndAuthenticator() throws Exception {
        InetSocketAddress address = start();
        List<String> filtered = new CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpContext api = server.createContext("/api", exchange -> {
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
    void anHttp2ConnectionCountsAtItsPriceUnderMaxConnections() throws Exception {
        assertEquals(io.loomgate.config.ConnectionBudget.H2_EXTRA, ServerLimits.H2_EXTRA, "the server counts it at the budget's price");
        int max = 1 + ServerLimits.H2_EXTRA + 1;   // one HTTP/2 connection at its price, and room for one plain one
        server = new LoomgateServers(new ServerLimits(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(60), max, 0,
                io.loomgate.config.AddressRanges.NONE)).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.start();
        try (H2Wire h2 = new H2Wire(server.getAddress()); Wire first = new Wire(server.getAddress());
             Wire second = new Wire(server.getAddress())) {
            h2.request(1, "GET", "/hello", true);
            assertEquals(200, h2.answer(1).status());
            first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, Wire.status(first.answer()), "one plain connection fits beside it");
            try {
                second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            } catch (IOException refusedAlready) {
                // closed before the request went out: what the next line checks
            }
            assertTrue(second.closedByServer(), "the next is closed, unanswered: the HTTP/2 connection takes " + (max - 1) + " places");
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
        server = tls;
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().sslContext(ca.clientContext()).build()) {
            java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("https://127.0.0.1:" + tls.getAddress().getPort() + "/x")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(java.net.http.HttpClient.Version.HTTP_2, r.version());
            assertTrue(r.body().startsWith("HTTP/2.0 TLSv1."), r.body());
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "not within 20 s");
            Thread.sleep(5);
        }
    }
}
