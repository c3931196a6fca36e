package io.loomgate.upstream.http;

import static io.loomgate.testing.ScriptedUpstream.SMUGGLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.BothModes;
import io.loomgate.testing.RawConnection.Reply;
import io.loomgate.testing.RawConnection;
import io.loomgate.testing.ScriptedUpstream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client and the proxy against a table of malformed and hostile answers, sent byte for byte by
 * a scripted upstream. For each: what the client got (the answer whole, loomgate's 502, or an
 * answer cut off by a closed connection, never a complete-looking wrong one); whether the upstream
 * connection was reused when it must not be; and that the next request, on the same client
 * connection and on another, gets its own answer and not bytes left over from this one.
 */
class MalformedAnswersTest {

    /** What a client of the proxy route must see. */
    sealed interface Expect permits Whole, Refused, CutOff {
    }

    /** The answer, whole and exact. */
    record Whole(int status, String body) implements Expect {
    }

    /** loomgate's own 502, before any byte of the upstream's answer. */
    record Refused() implements Expect {
    }

    /**
     * A closed connection, either before any byte (the upstream's head was still buffered) or after
     * the upstream's status and part of a body, short of what was announced.
     */
    record CutOff(int status) implements Expect {
    }

    /** One row: the answer's bytes, what a proxy client sees, whether the connection must close, a fan-out's status. */
    record Case(String name, String answer, Expect proxy, boolean mustClose, int fanOut) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n";
    private static final AtomicBoolean LATE_BYTES_SENT = new AtomicBoolean();
    private static final AtomicLong TRAILER_BYTES = new AtomicLong();
    private static final long TRAILER_CAP = 64L * 1024 * 1024;

    static List<Case> cases() {
        return List.of(
                new Case("clean", OK + "Content-Length: 2\r\n\r\nok", new Whole(200, "ok"), false, 200),
                new Case("interim-100", "HTTP/1.1 100 Continue\r\n\r\n" + OK + "Content-Length: 2\r\n\r\nok", new Whole(200, "ok"), false, 200),
                new Case("extra-body", OK + "Content-Length: 5\r\n\r\nhello" + SMUGGLED, new Whole(200, "hello"), true, 200),
                new Case("no-content-then-bytes", "HTTP/1.1 204 No Content\r\n\r\n" + SMUGGLED, new Whole(204, ""), true, 200),
                new Case("not-modified-then-bytes", "HTTP/1.1 304 Not Modified\r\n\r\n" + SMUGGLED, new Whole(304, ""), true, 502),
                new Case("two-lengths", OK + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", new Refused(), true, 502),
                new Case("space-before-colon", OK + "Content-Length : 5\r\n\r\nhello", new Refused(), true, 502),
                new Case("after-last-chunk", OK + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, new Whole(200, "hello"), true, 200),
                new Case("xchunked", OK + "Transfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", new Refused(), true, 502),
                new Case("chunked-then-gzip", OK + "Transfer-Encoding: chunked, gzip\r\n\r\n5\r\nhello\r\n0\r\n\r\n", new Refused(), true, 502),
                new Case("switching-protocols", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n" + SMUGGLED, new Refused(), true, 502),
                new Case("negative-length", OK + "Content-Length: -5\r\n\r\n", new Refused(), true, 502),
                new Case("plus-length", OK + "Content-Length: +5\r\n\r\nhello", new Refused(), true, 502),
                new Case("length-and-chunked", OK + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n", new Refused(), true, 502),
                new Case("bad-header-name", OK + "X(y): z\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("status-2a0", "HTTP/1.1 2a0 OK\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("status-999", "HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("status-600", "HTTP/1.1 600 Odd\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("status-minus-20", "HTTP/1.1 -20 Odd\r\n\r\n" + OK + "Content-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("status-glued", "HTTP/1.1 200OK\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("folded-header", OK + "X-A: a\r\n  folded\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("bare-cr", OK + "X-A: a\rX-Injected: yes\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("nul-in-value", OK + "X-A: a\u0000b\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("endless-header", OK + "X-A: " + "a".repeat(100_000) + "\r\nContent-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("too-many-headers", OK + "X-A: a\r\n".repeat(150) + "Content-Length: 2\r\n\r\nok", new Refused(), true, 502),
                new Case("http10", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", new Whole(200, "ok"), true, 200),
                new Case("connection-close", OK + "Connection: close\r\nContent-Length: 2\r\n\r\nok", new Whole(200, "ok"), true, 200),
                new Case("chunk-minus-one", OK + "Transfer-Encoding: chunked\r\n\r\n-1\r\nhello\r\n0\r\n\r\n", new CutOff(200), true, 502),
                new Case("chunk-size-overflow", OK + "Transfer-Encoding: chunked\r\n\r\n10000000000000000\r\nhello\r\n0\r\n\r\n", new CutOff(200), true, 502),
                new Case("bad-chunk-end", OK + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n", new CutOff(200), true, 502),
                new Case("cut-short-length", null, new CutOff(200), true, 502),
                new Case("cut-mid-chunk", null, new CutOff(200), true, 502),
                new Case("endless-trailer", null, new CutOff(200), true, 502),
                new Case("extra-body-later", null, new Whole(200, "hello"), true, 200));
    }

    private static ScriptedUpstream upstream;
    private static BothModes gates;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        for (Case c : cases()) {
            if (c.answer() != null) {
                upstream.raw(c.name(), c.answer());
            }
        }
        upstream.script("cut-short-length", (r, s, out) -> {
            ScriptedUpstream.write(out, OK + "Content-Length: 100\r\n\r\n" + "0123456789");
            return false;
        }).script("cut-mid-chunk", (r, s, out) -> {
            ScriptedUpstream.write(out, OK + "Transfer-Encoding: chunked\r\n\r\n5\r\nhel");
            return false;
        }).script("endless-trailer", (r, s, out) -> {
            ScriptedUpstream.write(out, OK + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Trailer: ");
            byte[] more = "t".repeat(64 * 1024).getBytes();
            for (long sent = 0; sent < TRAILER_CAP; sent += more.length) {
                out.write(more);
                TRAILER_BYTES.set(sent + more.length);
            }
            return false;
        }).script("extra-body-later", (r, s, out) -> {
            ScriptedUpstream.write(out, OK + "Content-Length: 5\r\n\r\nhello");
            sleep(100);
            ScriptedUpstream.write(out, SMUGGLED);
            LATE_BYTES_SENT.set(true);
            return true;
        });
        dir = Files.createTempDirectory("loomgate-malformed");
        StringBuilder ups = new StringBuilder("{\"id\":\"up\",\"kind\":\"http\",\"url\":\"" + upstream.url("/") + "\",\"idleTimeout\":\"2s\"},\n"
                + "{\"id\":\"fine\",\"kind\":\"http\",\"url\":\"" + upstream.url("/ok/fan") + "\"}");
        StringBuilder routes = new StringBuilder("{\"path\":\"/px/*\",\"policy\":\"proxy\",\"upstreams\":[\"up\"]},\n"
                + "{\"path\":\"/one/fine\",\"policy\":\"single\",\"upstreams\":[\"fine\"]}");
        for (Case c : cases()) {
            ups.append(",\n{\"id\":\"c-").append(c.name()).append("\",\"kind\":\"http\",\"url\":\"")
                    .append(upstream.url("/case/" + c.name())).append("\",\"idleTimeout\":\"2s\"}");
            routes.append(",\n{\"path\":\"/one/").append(c.name()).append("\",\"policy\":\"single\",\"upstreams\":[\"c-")
                    .append(c.name()).append("\"]}");
        }
        Path file = dir.resolve("routes.json");
        Files.writeString(file, "{\"upstreams\":[" + ups + "],\n\"routes\":[" + routes + "]}");
        gates = BothModes.withRoutes(file);
    }

    @AfterAll
    static void stop() throws Exception {
        gates.close();
        upstream.close();
        Files.deleteIfExists(dir.resolve("routes.json"));
        Files.deleteIfExists(dir);
    }

    static Stream<Arguments> casesInBothModes() {
        return cases().stream().flatMap(c -> Stream.of(Arguments.of("virtual", c), Arguments.of("platform", c)));
    }

    @ParameterizedTest(name = "proxy, {0}: {1}")
    @MethodSource("casesInBothModes")
    void theProxyPassesOnlyWhatTheUpstreamReallySent(String mode, Case c) throws Exception {
        InetSocketAddress address = gates.gate(mode).server().address();
        String tag = mode + "-" + c.name();
        LATE_BYTES_SENT.set(false);
        try (RawConnection client = new RawConnection(address)) {
            Reply reply = client.get("/px/case/" + c.name());
            switch (c.proxy()) {
                case Whole(int status, String body) -> {
                    assertEquals(status, reply.status(), reply.toString());
                    assertEquals(body, reply.body());
                    assertTrue(reply.complete(), reply.toString());
                }
                case Refused() -> {
                    assertEquals(502, reply.status(), reply.toString());
                    assertTrue(reply.body().contains("\"error\":\"bad_gateway\"") && reply.body().contains("malformed answer"), reply.body());
                }
                case CutOff(int status) -> {
                    assertTrue(reply.status() == -1 || reply.status() == status, reply.toString());
                    assertFalse(reply.complete(), "a broken body must not look complete: " + reply);
                    assertTrue(client.closedByServer(30_000), "the client's connection is closed");
                }
            }
            if (c.name().equals("extra-body-later")) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(LATE_BYTES_SENT);
            }
            if (!(c.proxy() instanceof CutOff)) {
                Reply same = client.get("/px/ok/same-" + tag);
                assertEquals("{\"tag\":\"same-" + tag + "\"}", same.body(), "the next answer on the same client connection");
            }
        }
        try (RawConnection other = new RawConnection(address)) {
            assertEquals("{\"tag\":\"other-" + tag + "\"}", other.get("/px/ok/other-" + tag).body(),
                    "the next answer on another client connection");
        }
        ScriptedUpstream.Seen caseSeen = upstream.last("/case/" + c.name());
        ScriptedUpstream.Seen next = upstream.last("/ok/other-" + tag);
        if (c.mustClose()) {
            assertNotEquals(caseSeen.connection(), next.connection(), "the connection of " + c.name() + " was reused");
        } else {
            assertEquals(caseSeen.connection(), next.connection(), "a clean exchange's connection is reused");
        }
    }

    @ParameterizedTest(name = "fan-out: {0}")
    @MethodSource("cases")
    void aFanOutCallTakesOnlyACompleteValidAnswer(Case c) throws Exception {
        LATE_BYTES_SENT.set(false);
        var client = gates.client("virtual");
        var reply = client.get("/one/" + c.name());
        assertEquals(c.fanOut(), reply.statusCode(), reply.body());
        if (c.name().equals("extra-body-later")) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(LATE_BYTES_SENT);
        }
        var next = client.get("/one/fine");
        assertTrue(next.body().contains("\"value\":{\"tag\":\"fan\"}"), next.body());
        if (c.mustClose()) {
            assertNotEquals(upstream.last("/case/" + c.name()).connection(), upstream.last("/ok/fan").connection());
        }
    }

    @org.junit.jupiter.api.Test
    void anEndlessTrailerIsCutOffWithinTheHeadLimitNotReadForever() throws Exception {
        try (RawConnection client = new RawConnection(gates.gate("virtual").server().address())) {
            Reply reply = client.get("/px/case/endless-trailer");
            assertFalse(reply.complete());
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> upstream.count("/case/endless-trailer") > 0);
        // the upstream's writes stop when loomgate closes; what it got out is what the socket buffers held
        long sent = TRAILER_BYTES.get();
        assertTrue(sent < TRAILER_CAP, "the upstream could write all " + sent + " bytes: loomgate kept reading");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
