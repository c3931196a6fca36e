package io.loomgate.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ScriptedUpstream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client's connection rules, seen at the pool and on the upstream's side: what goes back to the
 * pool, what is noticed before reuse, what is sent twice and what never is, and that a stalled
 * write gives up.
 */
class Http1ClientTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    private static final AtomicBoolean CLOSED_IDLE = new AtomicBoolean();

    private static ScriptedUpstream upstream;
    private static Origin origin;

    @BeforeAll
    static void start() throws IOException {
        upstream = ScriptedUpstream.start()
                .raw("clean", OK)
                .raw("extra", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + ScriptedUpstream.SMUGGLED)
                .raw("hint", "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\nok")
                // a connection's first request is answered; on a reused one, the upstream reads the request and closes
                .script("close-if-reused", (r, s, out) -> {
                    if (r.index() > 1) {
                        return false;
                    }
                    ScriptedUpstream.write(out, OK);
                    return true;
                })
                .script("half-head-if-reused", (r, s, out) -> {
                    ScriptedUpstream.write(out, r.index() > 1 ? "HTTP/1.1 200 O" : OK);
                    return r.index() == 1;
                })
                // answers, then closes the idle connection soon after, as a short keep-alive timeout does
                .script("short-keep-alive", (r, s, out) -> {
                    ScriptedUpstream.write(out, OK);
                    sleep(100);
                    CLOSED_IDLE.set(true);
                    return false;
                })
                .scriptBeforeBody("never-reads-body", (r, s, out) -> {
                    sleep(30_000);
                    return false;
                });
        origin = Origin.of(upstream.url("/"));
    }

    @AfterAll
    static void stop() throws IOException {
        upstream.close();
    }

    private static Http1Client client() {
        return new Http1Client(Duration.ofSeconds(5));
    }

    private static OutgoingRequest request(String method, String path, String body) {
        byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        return new OutgoingRequest(method, origin, path, io.loomgate.http.Headers.EMPTY,
                bytes == null ? null : new java.io.ByteArrayInputStream(bytes), bytes == null ? 0 : bytes.length);
    }

    private static String exchange(Http1Client client, OutgoingRequest request) throws IOException {
        try (UpstreamResponse r = client.send(request, System.nanoTime() + Duration.ofSeconds(5).toNanos(), Duration.ofSeconds(5))) {
            return r.status() + " " + new String(r.body().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aConnectionIsPooledOnlyAfterAnAnswerWithNothingLeftOver() throws IOException {
        try (Http1Client client = client()) {
            assertEquals("200 ok", exchange(client, request("GET", "/case/clean", null)));
            assertEquals(1, client.pooled(origin.key()), "a clean exchange leaves its connection in the pool");
            assertEquals("200 ok", exchange(client, request("GET", "/case/extra", null)));
            assertEquals(0, client.pooled(origin.key()), "bytes after the answer's end: the connection is closed, not pooled");
        }
    }

    @Test
    void anUpstreamsKeepAliveTimeoutIsHonoured() throws IOException {
        try (Http1Client client = client()) {
            exchange(client, request("GET", "/case/hint", null));
            exchange(client, request("GET", "/ok/after-hint", null));
            assertNotEquals(upstream.last("/case/hint").connection(), upstream.last("/ok/after-hint").connection(),
                    "Keep-Alive: timeout=1 leaves no time to reuse the connection safely");
        }
    }

    @Test
    void anIdempotentBodilessRequestIsSentAgainWhenAReusedConnectionTurnsOutClosed() throws IOException {
        try (Http1Client client = client()) {
            exchange(client, request("GET", "/case/close-if-reused?first", null));
            long before = upstream.count("/case/close-if-reused?second");
            assertEquals("200 ok", exchange(client, request("GET", "/case/close-if-reused?second", null)));
            assertEquals(2, upstream.count("/case/close-if-reused?second") - before,
                    "sent on the reused connection, which closed, then once more on a new one");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"POST", "PATCH"})
    void aNonIdempotentRequestIsNeverSentTwice(String method) throws IOException {
        try (Http1Client client = client()) {
            exchange(client, request("GET", "/case/close-if-reused?warm-" + method, null));
            String target = "/case/close-if-reused?" + method;
            assertThrows(IOException.class, () -> exchange(client, request(method, target, null)));
            assertEquals(1, upstream.count(target), method + " reached the upstream once, and failed");
        }
    }

    @Test
    void aRequestIsNotSentAgainOnceAnyOfTheAnswerCame() throws IOException {
        try (Http1Client client = client()) {
            exchange(client, request("GET", "/case/half-head-if-reused?warm", null));
            assertThrows(IOException.class, () -> exchange(client, request("GET", "/case/half-head-if-reused?x", null)));
            assertEquals(1, upstream.count("/case/half-head-if-reused?x"));
        }
    }

    @Test
    void aPooledConnectionTheUpstreamClosedIsNoticedBeforeAPostIsSentOnIt() throws IOException {
        try (Http1Client client = client()) {
            CLOSED_IDLE.set(false);
            exchange(client, request("GET", "/case/short-keep-alive", null));
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(CLOSED_IDLE);
            Awaitility.await().pollDelay(Duration.ofMillis(50)).atMost(Duration.ofSeconds(1)).until(() -> true);
            assertEquals("200 {\"tag\":\"posted\"}", exchange(client, request("POST", "/ok/posted", "a body")));
            assertEquals(1, upstream.count("/ok/posted"));
            assertNotEquals(upstream.last("/case/short-keep-alive").connection(), upstream.last("/ok/posted").connection());
        }
    }

    @Test
    void aWriteThatMakesNoProgressGivesUpAfterTheIdleTimeout() throws IOException {
        try (Http1Client client = client()) {
            InputStream endless = new InputStream() {
                @Override
                public int read() {
                    return 'x';
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    java.util.Arrays.fill(b, off, off + len, (byte) 'x');
                    return len;
                }
            };
            OutgoingRequest big = new OutgoingRequest("POST", origin, "/case/never-reads-body", io.loomgate.http.Headers.EMPTY, endless, -1);
            IOException e = assertThrows(IOException.class,
                    () -> client.send(big, System.nanoTime() + Duration.ofSeconds(60).toNanos(), Duration.ofMillis(500)));
            // The idle timeout's, not the 60 s deadline's: its own exception and words.
            assertInstanceOf(SocketTimeoutException.class, e, e.toString());
            assertTrue(e.getMessage().contains("read nothing more of the request"), e.getMessage());
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
