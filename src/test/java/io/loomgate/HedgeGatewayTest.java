package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.BothModes;
import io.loomgate.testing.MisbehavingUpstream.Seen;
import io.loomgate.testing.MisbehavingUpstream;
import io.loomgate.testing.TestClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hedged requests against a real upstream on 127.0.0.1 that records when each copy arrived, when it
 * was answered, and when loomgate closed its connection: what a hedge did is read on the upstream's
 * side, not from loomgate's JSON.
 */
class HedgeGatewayTest {

    private static MisbehavingUpstream upstream;
    private static BothModes gates;
    private static TestClient client;
    private static Path file;

    @BeforeAll
    static void start() throws Exception {
        upstream = MisbehavingUpstream.start();
        String json = """
                {"upstreams": [
                   {"id": "straggler", "kind": "http", "url": "%s"},
                   {"id": "budgeted",  "kind": "http", "url": "%s"},
                   {"id": "quick",     "kind": "http", "url": "%s"},
                   {"id": "failing",   "kind": "http", "url": "%s"},
                   {"id": "json",      "kind": "http", "url": "%s"}],
                 "clientKnobs": true, "routes": [
                   {"path": "/hedged",  "policy": "hedge", "upstreams": ["straggler"], "hedge": {"after": "100ms", "budget": 1}},
                   {"path": "/in-time", "policy": "hedge", "upstreams": ["quick"], "hedge": {"after": "300ms", "budget": 1}},
                   {"path": "/budget",  "policy": "hedge", "upstreams": ["budgeted"], "hedge": {"after": "20ms", "budget": 0.25, "minPerSecond": 0}},
                   {"path": "/twice",   "policy": "hedge", "upstreams": ["quick"], "hedge": {"after": "0ms", "budget": 1}},
                   {"path": "/failover", "policy": "hedge", "upstreams": ["failing", "json"], "timeout": "25s", "hedge": {"after": "20s", "budget": 1}},
                   {"path": "/no-credit", "policy": "hedge", "upstreams": ["failing", "json"], "hedge": {"after": "1s", "budget": 0.01, "minPerSecond": 0}},
                   {"path": "/quiet", "policy": "hedge", "upstreams": ["budgeted"], "hedge": {"after": "20ms", "budget": 0.01}}]}
                """.formatted(upstream.url("/straggler?ms=1500"), upstream.url("/straggler?ms=150"),
                upstream.url("/slow?ms=20"), upstream.url("/status?code=503"), upstream.url("/json"));
        file = Files.createTempFile("loomgate-hedge", ".json");
        Files.writeString(file, json);
        gates = BothModes.withRoutes(file);
        client = gates.client("virtual");
    }

    @AfterAll
    static void stop() throws Exception {
        gates.close();
        upstream.close();
        Files.deleteIfExists(file);
    }

    private static List<Seen> seen(HttpResponse<String> r) {
        return upstream.seenBy(r.headers().firstValue("X-Request-Id").orElseThrow());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> hedge(HttpResponse<String> r) {
        return (Map<String, Object>) TestClient.json(r).get("hedge");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void theBackupGoesOutOnlyAfterTheDelayAndTheLosersConnectionIsClosed(String mode) {
        HttpResponse<String> r = gates.client(mode).get("/hedged");
        assertEquals(200, r.statusCode(), r.body());
        List<Seen> copies = seen(r);
        assertEquals(2, copies.size(), "the upstream received the primary and one backup");
        Seen primary = copies.get(0);
        Seen backup = copies.get(1);
        long gapMs = (backup.receivedAt - primary.receivedAt) / 1_000_000;
        assertTrue(backup.receivedAt > primary.receivedAt, "the primary went first");
        assertTrue(((Number) hedge(r).get("sentAtMs")).longValue() >= 100, "the backup left no sooner than the 100 ms delay: " + hedge(r));
        MisbehavingUpstream.awaitClosed(primary);
        assertEquals(0, primary.answeredAt, "the 1.5 s primary never got to answer");
        long closedMs = (primary.closedAt - backup.answeredAt) / 1_000_000;
        System.out.println("/hedged (" + mode + "): backup sent " + gapMs + " ms after the primary; the primary's"
                + " connection closed " + closedMs + " ms after the backup answered");
        assertTrue(primary.closedAt >= backup.answeredAt, "the loser's connection closed after the winner answered");
        assertEquals(Map.of("sent", true, "sentAtMs", hedge(r).get("sentAtMs"), "winner", "backup"), hedge(r));
        assertTrue(r.body().contains("\"copy\":\"primary\",\"state\":\"cancelled\""), r.body());
        assertTrue(r.body().contains("\"copy\":\"backup\",\"state\":\"success\""), r.body());
    }

    @Test
    void aPrimaryThatAnswersBeforeTheDelaySendsNoBackup() throws Exception {
        HttpResponse<String> r = client.get("/in-time");
        assertEquals(200, r.statusCode(), r.body());
        org.awaitility.Awaitility.await().during(java.time.Duration.ofMillis(400)).atMost(java.time.Duration.ofSeconds(30))
                .until(() -> seen(r).size() == 1);  // past the 300 ms delay, still no backup arrived
        assertEquals(Map.of("sent", false, "winner", "primary"), hedge(r));
        assertEquals(1, ((List<?>) TestClient.json(r).get("results")).size(), "an unsent backup is not listed");
    }

    @Test
    void theBudgetStopsHedgesPastItsShare() {
        int hedged = 0;
        int received = 0;
        for (int i = 0; i < 12; i++) {
            HttpResponse<String> r = client.get("/budget");
            assertEquals(200, r.statusCode(), r.body());
            received += seen(r).size();
            hedged += Boolean.TRUE.equals(hedge(r).get("sent")) ? 1 : 0;
        }
        assertEquals(15, received, "12 primaries, each slower than the 20 ms delay, and 25% of 12 = 3 backups");
        assertEquals(3, hedged);
    }

    @Test
    void theBudgetsFloorHedgesAQuietRoutesFirstSlowRequest() {
        HttpResponse<String> r = client.get("/quiet");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(Boolean.TRUE, hedge(r).get("sent"), "a 1% share has no credit yet; the floor of 2 a second pays");
        assertEquals(2, seen(r).size(), "the upstream saw the primary and the backup");
    }

    @Test
    void twoCopiesAtOnceWhenTheDelayIsZero() {
        HttpResponse<String> r = client.get("/twice");
        assertEquals(200, r.statusCode(), r.body());
        List<Seen> copies = seen(r);
        assertEquals(2, copies.size());
        Seen winner = copies.stream().filter(s -> s.answeredAt != 0).findFirst().orElseThrow();
        assertTrue(copies.stream().allMatch(s -> s.receivedAt <= winner.answeredAt),
                "both copies left together: each reached the upstream before either was answered");
    }

    @Test
    void aFailedPrimarySendsTheBackupAtOnceToTheSecondUpstream() {
        HttpResponse<String> r = client.get("/failover");
        assertEquals(200, r.statusCode(), r.body());
        List<Seen> copies = seen(r);
        assertEquals(List.of("/status", "/json"), copies.stream().map(s -> s.path).toList());
        assertTrue(copies.get(1).receivedAt >= copies.get(0).answeredAt, "the backup left after the primary failed");
        assertTrue(((Number) hedge(r).get("sentAtMs")).longValue() < 10_000, "at once, not after the 20 s delay: " + hedge(r));
        assertEquals("backup", hedge(r).get("winner"));
    }

    @Test
    void aFailedPrimaryWithNoBudgetLeftIsTheAnswer() {
        HttpResponse<String> r = client.get("/no-credit");
        assertEquals(502, r.statusCode(), r.body());
        assertEquals(List.of("/status"), seen(r).stream().map(s -> s.path).toList(), "no backup reached the upstream");
        assertEquals("failed and no backup was sent: failing: answered HTTP 503", TestClient.json(r).get("error"));
        assertEquals(Map.of("sent", false), hedge(r));
    }

    @Test
    void whenBothCopiesFailTheAnswerSaysSoWithBothReasons() {
        HttpResponse<String> r = client.get("/failover?fail=json");
        assertEquals(502, r.statusCode(), r.body());
        String error = (String) TestClient.json(r).get("error");
        assertTrue(error.startsWith("both copies failed: failing: "), error);
        assertTrue(error.contains("json: failed on request (?fail=json)"), error);
        assertFalse(hedge(r).containsKey("winner"));
    }
}
