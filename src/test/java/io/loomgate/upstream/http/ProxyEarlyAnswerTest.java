package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.FileGate;
import io.loomgate.testing.RawHttp;
import io.loomgate.testing.RawServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upstream that answers before it has read the request body (a 401 to a large upload): the
 * client gets that answer whole, the upstream connection is not reused, and the rest of the
 * client's body is never read as a request. nginx passes such a 401 on; loomgate used to answer 502
 * (the upstream's close broke the write) or, when the upstream kept its connection open without
 * reading, 504 after the deadline.
 */
class ProxyEarlyAnswerTest {

    @TempDir
    Path dir;

    private static final byte[] BIG = "u".repeat(3 * 1024 * 1024).getBytes(StandardCharsets.ISO_8859_1);
    private static final String REFUSAL = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"up\"\r\n"
            + "Content-Length: 12\r\nContent-Type: text/plain\r\n\r\nno, not you.";

    /** An upstream that answers 401 to every request as soon as its head is read; {@code thenClose}: closes without reading the body. */
    private static final class Refusing implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger connections = new AtomicInteger();
        final List<String> heads = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        Refusing(boolean thenClose) throws IOException {
            this(thenClose, thenClose ? REFUSAL.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n") : REFUSAL);
        }

        Refusing(boolean thenClose, String answer) throws IOException {
            server = RawServer.start(thenClose ? 0 : 4096, s -> {
                connections.incrementAndGet();
                try (Socket socket = s) {
                    InputStream in = socket.getInputStream();
                    String head = RawServer.head(in);
                    if (head == null) {
                        return;
                    }
                    heads.add(head);
                    OutputStream out = socket.getOutputStream();
                    out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    if (!thenClose) {
                        release.await();   // keeps the connection open, reading nothing, until the test is done
                    } else {
                        // It closes as servers do (nginx's lingering close): its side first, then what
                        // still comes is dropped unread until the gateway lets go. A close with the body
                        // unread would make its kernel answer with a reset, which may reach the gateway
                        // before the 401 does and take it (RFC 9112 section 9.6); under load it did, once.
                        // It says it closes (Connection: close, as section 9.6 asks): without it, a gateway
                        // that read the 401 after the whole body had gone may pool the connection before
                        // the FIN arrives, and a POST sent on it fails (never retried); CI saw that, once.
                        socket.shutdownOutput();
                        socket.setSoTimeout(30_000);
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                } catch (IOException | InterruptedException ignored) {
                    // the gateway closed: that is its right after an early answer
                }
            });
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            release.countDown();
            server.close();
        }
    }

    private FileGate gate(Refusing up) throws Exception {
        return gate(up, "4MB");
    }

    private FileGate gate(Refusing up, String maxBody) throws Exception {
        return FileGate.start(dir, "{\"id\": \"up\", \"kind\": \"http\", \"url\": \"" + up.url() + "/\"}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"up\"], \"maxBodyBytes\": \"" + maxBody + "\","
                        + " \"timeout\": \"3s\"}"));
    }

    private static HttpResponse<String> post(FileGate g) throws Exception {
        return post(g, BIG);
    }

    private static HttpResponse<String> post(FileGate g, byte[] body) throws Exception {
        return g.client().http().send(HttpRequest.newBuilder(g.gate().uri("/p/upload"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** More than the socket buffers between loomgate and an upstream reading nothing (a 4 KB receive buffer) can hold. */
    private static final byte[] HUGE = new byte[12 * 1024 * 1024];

    @Test
    void anUpstreamThatAnswersAndClosesBeforeReadingTheBodyIsPassedOnEveryTime() throws Exception {
        try (Refusing up = new Refusing(true); FileGate g = gate(up)) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = post(g);
                assertEquals(401, r.statusCode(), "try " + i + ": " + r.body());
                assertEquals("no, not you.", r.body());
                assertEquals("Basic realm=\"up\"", r.headers().firstValue("WWW-Authenticate").orElse(null));
            }
        }
    }

    @Test
    void anEarlyAnswerWithoutABodyIsPassedOnEveryTime() throws Exception {
        String empty = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"up\"\r\nContent-Length: 0\r\n\r\n";
        try (Refusing up = new Refusing(false, empty); FileGate g = gate(up)) {
            for (int i = 0; i < 5; i++) {   // the JDK's server ends an exchange whose answer has no body as the head goes
                HttpResponse<String> r = post(g);
                assertEquals(401, r.statusCode(), "try " + i + ": " + r.body());
                assertEquals("", r.body());
            }
        }
    }

    @Test
    void anUpstreamThatAnswersAndKeepsReadingNothingIsPassedOnAndItsConnectionIsNotReused() throws Exception {
        try (Refusing up = new Refusing(false); FileGate g = gate(up, "16MB")) {
            HttpResponse<String> r = post(g, HUGE);
            assertEquals(401, r.statusCode(), "passed on while the upstream still holds its connection: " + r.body());
            assertEquals("no, not you.", r.body());
            assertEquals(1, up.connections.get());
            assertEquals(401, post(g, HUGE).statusCode(), "the second request on a new connection, not the held one");
            assertEquals(2, up.connections.get(), "a connection whose request body was not sent whole carries nothing more");
        }
    }

    @Test
    void theRestOfTheClientsBodyIsNeverReadAsARequest() throws Exception {
        try (Refusing up = new Refusing(true); FileGate g = gate(up)) {
            String head = "POST /p/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + BIG.length + "\r\n\r\n";
            byte[] smuggled = "GET /p/smuggled HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
            byte[] body = BIG.clone();
            System.arraycopy(smuggled, 0, body, body.length - smuggled.length, smuggled.length);   // the body ends like a request
            byte[] request = new byte[head.length() + body.length];
            System.arraycopy(head.getBytes(StandardCharsets.ISO_8859_1), 0, request, 0, head.length());
            System.arraycopy(body, 0, request, head.length(), body.length);
            RawHttp.Answer a = RawHttp.send(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()), request);
            assertEquals(401, a.status(), a.text());
            assertEquals(1, RawHttp.wholeAnswers(a.text()), a.text());
            assertTrue(up.heads.stream().noneMatch(h -> h.contains("smuggled")), "the body's tail never reached the upstream as a request: "
                    + up.heads);
        }
    }
}
