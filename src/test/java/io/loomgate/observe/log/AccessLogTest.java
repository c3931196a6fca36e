package io.loomgate.observe.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.observe.event.RequestSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The access log's two forms, on made-up requests, and its queue: never blocking, dropping and counting, reopening. */
class AccessLogTest {

    private static final RequestSummary.Wire WIRE = new RequestSummary.Wire("203.0.113.9", "curl/8.5\nX: y", 12, 345,
            41_500_000, "4bf92f3577b34da6a3ce929d0e0e4736", "upstream_failed", "HTTP/1.1",
            java.util.Optional.of(new io.loomgate.http.RequestLedger.Proxied("10.0.0.5:8080", 503, 2)));

    private static RequestSummary summary(String path, int status) {
        return new RequestSummary(new RequestSummary.Asked("/users/{id}", "GET", path, "9c41e2-1", "", "billing"),
                new RequestSummary.Ending(true, status, io.loomgate.observe.event.Delivery.WHOLE, 52_340_000), WIRE);
    }

    @Test
    void aTextLineCannotBeForged() {
        assertEquals("GET /x?GET /admin 200 404 52.3ms id=9c41e2-1 upstream=10.0.0.5:8080 upstream-status=503 tries=2 caller=billing",
                AccessLog.text(summary("/x\nGET /admin 200", 404)));
    }

    @Test
    void aJsonLineHasEveryFieldOnOneLineWhateverTheRequestSent() {
        String line = AccessLog.json(summary("/users/7\n{\"forged\":1}", 502), Instant.parse("2026-11-25T23:19:09.123456Z"));
        assertTrue(!line.contains("\n"), line);
        Map<String, Object> o = JsonParser.parseObject(line);
        assertEquals("2026-11-25T23:19:09.123Z", o.get("time"));
        assertEquals("2026-11-25T23:19:09.000Z", JsonParser.parseObject(AccessLog.json(summary("/", 200),
                Instant.parse("2026-11-25T23:19:09Z"))).get("time"), "always to the millisecond");
        assertEquals("203.0.113.9", o.get("client"));
        assertEquals("GET", o.get("method"));
        assertEquals("/users/{id}", o.get("route"));
        assertEquals("/users/7\n{\"forged\":1}", o.get("path"));
        assertEquals(502L, ((Number) o.get("status")).longValue());
        assertEquals(12L, ((Number) o.get("bytesIn")).longValue());
        assertEquals(345L, ((Number) o.get("bytesOut")).longValue());
        assertEquals(52.3, ((Number) o.get("durationMs")).doubleValue());
        assertEquals(41.5, ((Number) o.get("upstreamMs")).doubleValue());
        assertEquals("9c41e2-1", o.get("requestId"));
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", o.get("traceId"));
        assertEquals("billing", o.get("caller"));
        assertEquals("curl/8.5\nX: y", o.get("userAgent"));
        assertEquals("upstream_failed", o.get("reason"));
        assertEquals("HTTP/1.1", o.get("protocol"));
        assertEquals("10.0.0.5:8080", o.get("upstream"), "the endpoint of the last try");
        assertEquals(503L, ((Number) o.get("upstreamStatus")).longValue());
        assertEquals(2L, ((Number) o.get("tries")).longValue());
    }

    @Test
    void aFullQueueDropsAndCountsRatherThanWaits() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        java.util.Queue<String> written = new java.util.concurrent.ConcurrentLinkedQueue<>();
        LogQueue queue = new LogQueue(line -> {
            try {
                stuck.await();   // a disk that stopped
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            written.add(line);
        });
        int offered = LogQueue.CAPACITY + 500;
        for (int i = 0; i < offered; i++) {
            queue.offer("line " + i);   // returns with the writer stuck: a queue that waited would hang here
        }
        assertTrue(queue.dropped() >= 499 && queue.dropped() <= 500, "dropped: " + queue.dropped());
        stuck.countDown();
        queue.close();   // waits for the writer a while; on a loaded machine it may still be writing after that
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> written.size() >= offered - queue.dropped());
        assertEquals(offered - queue.dropped(), written.size(), "every line kept was written");
    }

    @Test
    void aRotatedFileIsOpenedAgainByItsName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("access.log");
        LogQueue queue = new LogQueue(LogQueue.file(file));
        queue.offer("first");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(file) && Files.readString(file).contains("first"));
        Files.move(file, dir.resolve("access.log.1"));   // what logrotate does
        queue.reopen();
        queue.offer("second");
        queue.close();
        assertEquals("first\n", Files.readString(dir.resolve("access.log.1")));
        assertEquals("second\n", Files.readString(file));
    }
}
