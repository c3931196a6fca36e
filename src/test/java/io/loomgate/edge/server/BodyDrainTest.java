package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.RawHttp;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A connection carries another request only after the first one's body was read to its end: on
 * loomgate's server, a handler answers without reading the body, and what the client sends next
 * on the connection (the body itself, shaped like a request) must never be taken as a request.
 * The connection closes instead when the client still waits for {@code 100 Continue}, when it
 * declared more than the server drains ({@link ServerLimits#DRAIN_BYTES}), and when a chunked body
 * goes on past that bound.
 */
class BodyDrainTest {

    private HttpServer server;
    private final List<String> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = Provider.LOOMGATE.create();
        server.createContext("/", x -> {
            handled.add(x.getRequestURI().getPath());
            if (x.getRequestURI().getQuery() != null && x.getRequestURI().getQuery().contains("close-first")) {
                x.getRequestBody().close();   // done with it unread, before answering: the server decides what is left
            }
            byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, ok.length);   // the body is never read
            try (OutputStream out = x.getResponseBody()) {
                out.write(ok);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RawHttp.Answer send(String bytes) {
        return RawHttp.send(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()), bytes);
    }

    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    @Test
    void aClientStillWaitingFor100ContinueHasItsConnectionClosed() {
        for (String target : List.of("/first", "/first?close-first")) {
            handled.clear();
            waitingFor100(target);
        }
    }

    private void waitingFor100(String target) {
        RawHttp.Answer a = send("POST " + target + " HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + SMUGGLED.length()
                + "\r\n\r\n" + SMUGGLED);
        assertEquals(200, a.status(), a.text());
        assertEquals(1, RawHttp.wholeAnswers(a.text()), a.text());
        assertEquals(List.of(target.split("\\?")[0]), handled, "the body was never read as a request");
    }

    @Test
    void aDeclaredLengthPastTheDrainBoundHasItsConnectionClosed() {
        for (String target : List.of("/first", "/first?close-first")) {
            handled.clear();
            declaredPastTheBound(target);
        }
    }

    private void declaredPastTheBound(String target) {
        int length = (int) ServerLimits.DRAIN_BYTES + 1000;
        String body = SMUGGLED + "x".repeat(length - SMUGGLED.length());
        RawHttp.Answer a = send("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + "\r\n\r\n" + SMUGGLED
                + body.substring(SMUGGLED.length()) + SMUGGLED);
        assertEquals(200, a.status(), a.text());
        assertEquals(1, RawHttp.wholeAnswers(a.text()), a.text());
        assertEquals(List.of(target.split("\\?")[0]), handled);
    }

    @Test
    void aChunkedBodyLongerThanTheDrainBoundHasItsConnectionClosedNotReadOn() {
        StringBuilder chunks = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {   // 100 KB in 10-byte chunks: the drain stops at 64 KiB, mid-body
            chunks.append("a\r\n0123456789\r\n");
        }
        RawHttp.Answer a = send("POST /first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n"
                + "GET /second HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(200, a.status(), a.text());
        assertEquals(1, RawHttp.wholeAnswers(a.text()), "one answer; no chunk was read as a request: " + a.text().lines().limit(12).toList());
        assertEquals(List.of("/first"), handled);
    }

    @Test
    void aBodyWithinTheBoundIsDrainedAndTheConnectionCarriesTheNextRequest() {
        RawHttp.Answer a = send("POST /first HTTP/1.1\r\nHost: x\r\nContent-Length: " + SMUGGLED.length() + "\r\n\r\n" + SMUGGLED
                + "GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals(2, RawHttp.wholeAnswers(a.text()), a.text());
        assertEquals(List.of("/first", "/second"), handled, "drained: the body was dropped, the next request read");
    }
}
