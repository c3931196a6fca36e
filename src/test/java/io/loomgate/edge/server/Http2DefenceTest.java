package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What bounds an HTTP/2 connection on loomgate's server, each from a raw-frame client: its concurrent
 * streams, the rapid-reset attack, a CONTINUATION flood, floods of frames that cost the server work
 * (PING, SETTINGS, PRIORITY, WINDOW_UPDATE, empty DATA), a first frame that is not SETTINGS, and its
 * price under {@code --max-connections}.
 */
class Http2DefenceTest {

    private final Http2Fixture fixture = new Http2Fixture();

    @AfterEach
    void stop() {
        fixture.stop();
    }

    @Test
    void theStreamPastTheConcurrencyLimitIsRefused() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            for (int i = 0; i < 100; i++) {
                w.request(1 + 2 * i, "GET", "/block-" + i, true);
            }
            Http2Fixture.waitFor(() -> fixture.seen.size() == 100);
            w.request(201, "GET", "/hello", true);
            H2Wire.Answer a = w.answer(201);
            assertEquals(ErrorCode.REFUSED_STREAM, a.reset().code());
            fixture.released.release(100);
            for (int i = 0; i < 100; i++) {
                assertEquals(200, w.answer(1 + 2 * i).status());
            }
            w.request(203, "GET", "/hello", true);
            assertEquals(200, w.answer(203).status(), "once streams ended, a new one is served");
        }
    }

    @Test
    void streamsOpenedAndResetFasterThanTheBucketAllowsEndTheConnection() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.sendRapidResets(3_000, "/block-r");
            Frame.GoAway g = w.goAway();
            assertNotNull(g);
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, g.code());
        }
    }

    @Test
    void aHeaderBlockSpreadOverEndlessContinuationsEndsTheConnection() throws Exception {
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.send(new Frame.Headers(1, w.block("GET", "/hello"), true, false, null));
            for (int i = 0; i < 100; i++) {
                w.send(new Frame.Continuation(1, new byte[0], false));
            }
            Frame.GoAway g = w.goAway();
            assertEquals(ErrorCode.ENHANCE_YOUR_CALM, g.code());
            assertTrue(fixture.seen.isEmpty());
        }
    }

    @Test
    void pingSettingsPriorityWindowUpdateAndEmptyDataFloodsEndTheConnection() throws Exception {
        InetSocketAddress address = fixture.start();
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
        try (H2Wire w = new H2Wire(fixture.start())) {
            w.send(new Frame.Ping(false, 0x0102030405060708L));
            assertEquals(new Frame.Ping(true, 0x0102030405060708L), w.next());
        }
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", fixture.server.getAddress().getPort())) {
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
    void anHttp2ConnectionCountsAtItsPriceUnderMaxConnections() throws Exception {
        assertEquals(io.loomgate.config.ConnectionBudget.H2_EXTRA, ServerLimits.H2_EXTRA, "the server counts it at the budget's price");
        int max = 1 + ServerLimits.H2_EXTRA + 1;   // one HTTP/2 connection at its price, and room for one plain one
        InetSocketAddress address = fixture.start(new ServerLimits(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(60), max, 0,
                io.loomgate.config.AddressRanges.NONE));
        try (H2Wire h2 = new H2Wire(address); Wire first = new Wire(address); Wire second = new Wire(address)) {
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
}
