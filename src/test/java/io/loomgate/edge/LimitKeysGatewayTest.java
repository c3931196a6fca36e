package io.loomgate.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.PrometheusText;
import io.loomgate.testing.RawConnection;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rate-limit keys through a real loomgate, as an attacker sends them: a flood of new keys never
 * locks a newcomer out, the table stays within its maxKeys whatever the keys' length, the metrics
 * show it, and a client address is what the connection and trusted proxies say, grouped by /64 for
 * IPv6, never a text a client wrote.
 */
class LimitKeysGatewayTest {

    @TempDir
    Path dir;
    private ApiUpstream api;
    private FileGate g;

    @BeforeEach
    void start() throws Exception {
        api = ApiUpstream.start().answer("/data", "{\"ok\":true}");
        String upstream = "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/data\"}";
        g = FileGate.start(dir, upstream, List.of(
                """
                {"path": "/by-header", "policy": "single", "upstreams": ["api"], "answer": "value",
                 "rateLimit": {"perSecond": 0.001, "burst": 1, "by": "header.X-Key", "maxKeys": 100}}""",
                """
                {"path": "/by-ip", "policy": "single", "upstreams": ["api"], "answer": "value",
                 "rateLimit": {"perSecond": 0.001, "burst": 1, "by": "ip"}}""",
                """
                {"path": "/refills", "policy": "single", "upstreams": ["api"], "answer": "value",
                 "rateLimit": {"perSecond": 2, "burst": 1, "by": "ip"}}"""),
                "--trusted-proxies", "127.0.0.1");
    }

    @AfterEach
    void stop() throws Exception {
        g.close();
        api.close();
    }

    private int status(String path, String... headers) {
        return g.client().get(path, headers).statusCode();
    }

    @Test
    void aFloodOfNewKeysNeverLocksANewcomerOutAndTheTableStaysWithinItsMaxKeys() throws Exception {
        assertEquals(200, status("/by-header", "X-Key", "alice"));
        assertEquals(429, status("/by-header", "X-Key", "alice"), "alice's burst of 1 is spent");
        String big = "v".repeat(15_000);
        try (RawConnection raw = new RawConnection(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()))) {
            for (int i = 0; i < 300; i++) {
                RawConnection.Reply r = raw.exchange("GET /by-header HTTP/1.1\r\nHost: x\r\nX-Key: " + big + i + "\r\n\r\n", false);
                assertEquals(200, r.status(), "a new key's first request, " + i);
            }
        }
        assertEquals(200, status("/by-header", "X-Key", "newcomer"),
                "after 300 new keys in a table of 100, a newcomer still gets a bucket of its own");
        PrometheusText metrics = PrometheusText.parse(g.client().get("/metrics?format=prometheus").body());
        Map<String, String> limit = Map.of("limit", "rate_limit", "route", "/by-header");
        assertTrue(metrics.value("loomgate_limit_keys", limit) <= 100, "keys held: " + metrics.value("loomgate_limit_keys", limit));
        assertTrue(metrics.value("loomgate_limit_evictions_total", limit) >= 200, "the flood's old keys were evicted");
        assertEquals(1, metrics.value("loomgate_limit_refused_total", limit), "alice's second request");
    }

    @Test
    void aTrustedProxysForwardedAddressIsTakenOnlyAsAnIpLiteral() {
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "203.0.113.7"));
        assertEquals(429, status("/by-ip", "X-Forwarded-For", "203.0.113.7"), "the same client behind the proxy");
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "203.0.113.8"), "another client behind the proxy");
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "not-an-address-" + "x".repeat(1000)),
                "a hop that is not an IP literal: the header is not believed, the peer (127.0.0.1) is the client");
        assertEquals(429, status("/by-ip", "X-Forwarded-For", "evil.example, another-name"),
                "another text is not another client: it is the peer again");
        assertEquals(429, status("/by-ip", "X-Forwarded-For", "203.0.113.9, garbage"), "one bad hop spoils the header");
    }

    @Test
    void anEmptyBucketRefillsAtItsRate() {
        assertEquals(200, status("/refills"));
        HttpResponse<String> refused = g.client().get("/refills");
        assertEquals(429, refused.statusCode());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow(), "half a second rounds up to 1");
        Awaitility.await("the token comes back, 2 a second").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> status("/refills") == 200);
    }

    @Test
    void ipv6ClientsAreLimitedByTheirSlash64() {
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "2001:db8:1:2::1"));
        assertEquals(429, status("/by-ip", "X-Forwarded-For", "2001:db8:1:2:ffff:ffff:ffff:ffff"),
                "another address in the same /64 is the same client");
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "2001:db8:1:3::1"), "the next /64 is another client");
        assertEquals(200, status("/by-ip", "X-Forwarded-For", "::ffff:198.51.100.4"));
        assertEquals(429, status("/by-ip", "X-Forwarded-For", "198.51.100.4"), "an IPv4-mapped address is its IPv4 address");
    }
}
