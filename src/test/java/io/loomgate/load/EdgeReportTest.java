package io.loomgate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tls and ratelimit reports, from runs made up here. */
class EdgeReportTest {

    private static RunResult run(String endpoint, String mode, long requests, long refused) {
        return new RunResult(endpoint, mode, 1000, requests, 10.0, Map.of("connect", 0L, "read", 0L, "write", 0L,
                "status", refused, "timeout", 0L), Map.of("p50", 300_000.0, "p99", 400_000.0), 0);
    }

    @Test
    void tlsIsComparedWithPlainHttpEndpointByEndpoint() {
        EdgeReport r = EdgeReport.tls(List.of(run("/block", "plain", 30_000, 0), run("/block", "tls", 27_000, 0)), Map.of());
        assertEquals("2700/s over HTTPS, 3000/s plain: 0.90 of plain; p99 400.0 ms against 400.0 ms", r.targets().get(0).measured());
        assertEquals("not measured in this run", r.targets().get(1).measured());
        assertTrue(r.table().contains("| `/block` | HTTPS | 1000 | 2700 |"), r.table());
    }

    @Test
    void aRateLimitIsMetWithinFivePercent() {
        EdgeReport ok = EdgeReport.rateLimit(List.of(run("/limited", "gateway", 200_000, 198_990)), Map.of("limitPerSecond", 100));
        assertEquals(Optional.of(true), ok.targets().getFirst().met(), ok.targets().getFirst().measured());
        assertEquals("101.0/s passed (1.010 of the limit), 198,990 refused with 429", ok.targets().getFirst().measured());
        EdgeReport loose = EdgeReport.rateLimit(List.of(run("/limited", "gateway", 200_000, 198_000)), Map.of("limitPerSecond", 100));
        assertEquals(Optional.of(false), loose.targets().getFirst().met(), "200/s passed");
    }
}
