package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code com.sun.net.httpserver} API as the JDK's own tests check it
 * ({@code test/jdk/com/sun/net/httpserver}), written anew and run on both implementations: what a
 * handler may count on, whichever server runs it.
 */
class ServerApiTest {

    private HttpServer server;

    private InetSocketAddress start(Provider provider, String path, HttpHandler handler) throws IOException {
        server = provider.create();
        server.createContext(path, handler);
        server.start();
        return server.getAddress();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aFixedLengthBodyIsReadAndAnAnswerOfKnownLengthWritten(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> answer(x, 200, new String(x.getRequestBody().readAllBytes())));
        try (Wire w = new Wire(a)) {
            w.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
            String answer = w.answer();
            assertEquals(200, Wire.status(answer));
            assertEquals("5", Wire.header(answer, "Content-Length"));
            assertTrue(answer.endsWith("hello"), answer);
            assertTrue(Wire.header(answer, "Date") != null, "every answer has a Date: " + answer);
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aChunkedBodyIsReadAndALengthOfZeroAnswersChunked(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> {
            String body = new String(x.getRequestBody().readAllBytes());
            x.sendResponseHeaders(200, 0);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body.getBytes());
                out.write("!".getBytes());
            }
        });
        try (Wire w = new Wire(a)) {
            w.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n");
            String answer = w.answer();
            assertEquals("chunked", Wire.header(answer, "Transfer-Encoding"));
            assertTrue(answer.endsWith("hello!"), answer);
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void minusOneIsNoBodyAndHeadGetsNone(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> {
            x.getResponseHeaders().set("Content-Length", "12");
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        try (Wire w = new Wire(a)) {
            w.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
            String head = w.head();
            assertEquals(200, Wire.status(head));
            assertEquals("12", Wire.header(head, "Content-Length"), "the length a GET would have, as the handler set it");
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, Wire.status(w.head()), "no body came between the two answers");
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void expectContinueGetsOneHundredBeforeTheBodyIsSent(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> answer(x, 200, new String(x.getRequestBody().readAllBytes())));
        try (Wire w = new Wire(a)) {
            w.send("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
            assertEquals(100, Wire.status(w.head()));
            w.send("data");
            String answer = w.answer();
            assertEquals(200, Wire.status(answer));
            assertTrue(answer.endsWith("data"), answer);
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> answer(x, 200, x.getRequestURI().getPath()));
        try (Wire w = new Wire(a)) {
            w.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\nGET /three HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(w.answer().endsWith("/one"));
            assertTrue(w.answer().endsWith("/two"));
            assertTrue(w.answer().endsWith("/three"));
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aBodyTheHandlerLeftUnreadIsDrainedAndTheConnectionServesOn(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> answer(x, 200, "ignored your body"));
        try (Wire w = new Wire(a)) {
            w.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world");
            assertEquals(200, Wire.status(w.answer()));
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, Wire.status(w.answer()), "the unread body was not taken for the next request");
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void connectionCloseFromTheClientOrTheHandlerEndsTheConnection(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> {
            if (x.getRequestURI().getPath().equals("/bye")) {
                x.getResponseHeaders().set("Connection", "close");
            }
            answer(x, 200, "ok");
        });
        try (Wire w = new Wire(a)) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals(200, Wire.status(w.answer()));
            assertTrue(w.closedByServer());
        }
        try (Wire w = new Wire(a)) {
            w.send("GET /bye HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, Wire.status(w.answer()));
            assertTrue(w.closedByServer());
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void anAnswerShortOfItsLengthClosesTheConnection(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> {
            x.sendResponseHeaders(200, 10);
            OutputStream out = x.getResponseBody();
            out.write("short".getBytes());
            try {
                out.close();
            } catch (IOException expected) {
                // the server says the answer was short
            }
        });
        try (Wire w = new Wire(a)) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            w.timeout(2_000);
            if (p == Provider.JDK) {
                // The JDK's server never flushes such an answer, nor closes its connection: its client
                // waits, for nothing, until its own timeout.
                assertThrows(java.net.SocketTimeoutException.class, w::head);
                return;
            }
            String head = w.head();
            assertEquals("10", Wire.header(head, "Content-Length"));
            byte[] body = new byte[10];
            int n = 0;
            boolean closed = false;
            try {
                for (int r; n < 10; n += r) {
                    r = w.read(body, n);
                    if (r < 0) {
                        closed = true;
                        break;
                    }
                }
            } catch (java.net.SocketTimeoutException open) {
                // the connection stayed open, the answer short
            } catch (IOException reset) {
                closed = true;
            }
            assertEquals(5, n, "five bytes came");
            assertTrue(closed, "then the connection closed: the client knows the answer is short");
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void theLongestContextWinsAndAPathWithoutOneIs404(Provider p) throws Exception {
        server = p.create();
        server.createContext("/api", x -> answer(x, 200, "api"));
        server.createContext("/api/v2", x -> answer(x, 200, "v2"));
        server.start();
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET /api/v2/things HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(w.answer().endsWith("v2"));
            w.send("GET /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(w.answer().endsWith("api"));
        }
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(404, Wire.status(w.head()));
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void filtersRunAroundTheHandlerInOrder(Provider p) throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        server = p.create();
        var context = server.createContext("/", x -> {
            events.add("handler");
            answer(x, 200, "ok");
        });
        context.getFilters().add(Filter.beforeHandler("first", x -> events.add("before")));
        context.getFilters().add(Filter.afterHandler("then", x -> events.add("after " + x.getResponseCode())));
        server.start();
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, Wire.status(w.answer()));
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> events.size() == 3);
        assertEquals(List.of("before", "handler", "after 200"), events);
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aBasicAuthenticatorRefusesWithoutCredentialsAndNamesThePrincipalWith(Provider p) throws Exception {
        server = p.create();
        var context = server.createContext("/", x -> answer(x, 200, x.getPrincipal().getUsername()));
        context.setAuthenticator(new BasicAuthenticator("test") {
            @Override
            public boolean checkCredentials(String user, String password) {
                return user.equals("ada") && password.equals("secret");
            }
        });
        server.start();
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            String refused = w.answer();
            assertEquals(401, Wire.status(refused));
            assertTrue(Wire.header(refused, "WWW-Authenticate").startsWith("Basic realm=\"test\""), refused);
        }
        try (Wire w = new Wire(server.getAddress())) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Basic YWRhOnNlY3JldA==\r\n\r\n");
            assertTrue(w.answer().endsWith("ada"));
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void attributesBelongToOneExchange(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> {
            Object before = x.getAttribute("seen");
            x.setAttribute("seen", "yes");
            answer(x, 200, String.valueOf(before));
        });
        try (Wire w = new Wire(a)) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(w.answer().endsWith("null"));
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            // The JDK's exchange reads and writes its context's attributes (ExchangeImpl.getAttribute):
            // what one request sets, the next one sees. Ours keeps them to the exchange, as the API describes.
            String second = w.answer();
            assertTrue(second.endsWith(p == Provider.JDK ? "yes" : "null"), second);
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void stopWaitsForTheExchangeInProgressThenClosesEverything(Provider p) throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InetSocketAddress a = start(p, "/", x -> {
            inHandler.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(x, 200, "finished");
        });
        try (Wire w = new Wire(a)) {
            w.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(inHandler.await(5, TimeUnit.SECONDS));
            Thread stopper = Thread.ofVirtual().start(() -> server.stop(10));
            Thread.sleep(200);
            assertTrue(stopper.isAlive(), "stop waits while an exchange is in progress");
            release.countDown();
            assertTrue(w.answer().endsWith("finished"));
            stopper.join(java.time.Duration.ofSeconds(10));
            assertTrue(!stopper.isAlive(), "stop returned once the exchange ended");
        }
        server = null;
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void theRequestUriIsTheTargetAsSent(Provider p) throws Exception {
        InetSocketAddress a = start(p, "/", x -> answer(x, 200, x.getRequestURI().getRawPath() + "?" + x.getRequestURI().getRawQuery()));
        try (Wire w = new Wire(a)) {
            w.send("GET /a%20b/c?x=%2F HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(w.answer().endsWith("/a%20b/c?x=%2F"));
        }
    }
}
