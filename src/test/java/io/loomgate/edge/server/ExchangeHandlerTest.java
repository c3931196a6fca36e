package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one seam: on loomgate's server an {@link ExchangeHandler} takes loomgate's own {@link Exchange},
 * with the request's fields as the client spelt them and the answer's written from loomgate's
 * {@link Headers}; a context with a filter or an authenticator still goes through the API, as it must.
 */
class ExchangeHandlerTest {

    private HttpServer server;

    /** Records which door each exchange came through, and answers with the given fields. */
    private static final class Recording implements ExchangeHandler {
        final List<Object> seen = new CopyOnWriteArrayList<>();

        @Override
        public void handle(Exchange exchange) throws IOException {
            seen.add(exchange);
            String custom = String.join("|", exchange.headers().all("x-custom"));
            exchange.write(new Response(200, "text/plain", ("custom=" + custom).getBytes(),
                    Headers.of("X-Answer", "one", "X-Answer", "two", "Content-Length", "999")), exchange.method().equals("HEAD"));
            exchange.close();
        }

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            seen.add(exchange);
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        }
    }

    private InetSocketAddress start(Recording handler, boolean withFilter) throws IOException {
        server = new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        HttpContext c = server.createContext("/", handler);
        if (withFilter) {
            c.getFilters().add(new Filter() {
                @Override
                public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                    chain.doFilter(exchange);
                }

                @Override
                public String description() {
                    return "pass";
                }
            });
        }
        server.start();
        return server.getAddress();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void loomgatesServerHandsTheHandlerItsOwnExchangeWithTheFieldsAsSpelt() throws Exception {
        Recording handler = new Recording();
        try (Wire w = new Wire(start(handler, false))) {
            w.send("GET /a HTTP/1.1\r\nHost: x\r\nX-CUSTOM: 1\r\nx-custom: 2\r\n\r\n");
            String answer = w.answer();
            assertEquals(200, Wire.status(answer));
            assertTrue(answer.endsWith("custom=1|2"), answer);
            assertTrue(answer.contains("X-Answer: one\r\nX-Answer: two\r\n"), "both lines, in order: " + answer);
            assertEquals("10", Wire.header(answer, "Content-Length"), "the framing is the body's, never the handler's: " + answer);
            w.send("HEAD /a HTTP/1.1\r\nHost: x\r\n\r\n");
            String head = w.head();
            assertEquals("7", Wire.header(head, "Content-Length"), "a HEAD carries the length a GET would: " + head);
        }
        assertEquals(2, handler.seen.size());
        Exchange first = assertInstanceOf(Exchange.class, handler.seen.getFirst());
        assertTrue(first.headers().names().contains("X-CUSTOM"), "the name as the client spelt it: " + first.headers());
        assertFalse(handler.seen.stream().anyMatch(HttpExchange.class::isInstance), "the API's exchange was never made");
    }

    @Test
    void aContextWithAFilterStillGoesThroughTheApi() throws Exception {
        Recording handler = new Recording();
        try (Wire w = new Wire(start(handler, true))) {
            w.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(204, Wire.status(w.head()));
        }
        assertInstanceOf(HttpExchange.class, handler.seen.getFirst(), "the filter ran on the API's exchange");
    }

    @Test
    void anUpgradeThatCannotSwitchIsDroppedAndOneThatCanIsKept() throws Exception {
        Recording handler = new Recording();
        try (Wire w = new Wire(start(handler, false))) {
            w.send("POST /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: upgrade\r\nContent-Length: 1\r\n\r\nz");
            w.answer();
            w.send("GET /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n");
            w.answer();
        }
        assertNull(((Exchange) handler.seen.get(0)).headers().first("Upgrade"), "a POST with a body cannot switch");
        assertEquals("websocket", ((Exchange) handler.seen.get(1)).headers().first("Upgrade"));
    }
}
