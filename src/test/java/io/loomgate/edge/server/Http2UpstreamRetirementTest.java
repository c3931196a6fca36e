package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.Loomgate;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HTTP/2 connection to an upstream carries 999 streams, then takes no new ones and closes once
 * its last ends (below nginx's default keepalive_requests, whose GOAWAY was seen to cut answers off):
 * the upstream sees the first 999 requests on one connection and the next on another, and every
 * answer is whole.
 */
class Http2UpstreamRetirementTest {

    @Test
    void aConnectionIsRetiredAfter999StreamsAndTheNextRequestsGoOnANewOne(@TempDir Path dir) throws Exception {
        BlockingQueue<Http2UpstreamTest.Seen> seen = new LinkedBlockingQueue<>();
        HttpServer up = Http2UpstreamTest.upstream(seen, new CountDownLatch(1), new AtomicReference<>());
        try (Loomgate gate = Http2UpstreamTest.gateway(dir, up);
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            int requests = 1_100;
            for (int i = 0; i < requests; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(gate.uri("/up/echo"))
                        .POST(HttpRequest.BodyPublishers.ofString("n" + i)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("echo:n" + i, r.body());
            }
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                Http2UpstreamTest.Seen s = seen.poll(30, TimeUnit.SECONDS);
                assertEquals("HTTP/2.0", s.protocol());
                assertEquals("n" + i, s.body(), "one at a time, in order");
                ports.add(s.remotePort());
            }
            assertEquals(List.of(ports.getFirst()), ports.subList(0, 999).stream().distinct().toList(),
                    "the first 999 on one connection");
            assertNotEquals(ports.getFirst(), ports.get(999), "the 1,000th on another");
            assertEquals(List.of(ports.get(999)), ports.subList(999, requests).stream().distinct().toList(), "and the rest with it");
            assertEquals(2, Http2UpstreamTest.metric(client, gate, "loomgate_upstream_connections_opened_total", "protocol=\"h2\""));
            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> Http2UpstreamTest.metric(client, gate, "loomgate_upstream_http2_connections", "") == 1);
        } finally {
            up.stop(0);
        }
    }
}
