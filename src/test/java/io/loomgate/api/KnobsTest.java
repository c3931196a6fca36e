package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The generic per-request knobs, checked against the upstreams of the route (here /multi-aggregate's). */
class KnobsTest {

    private static final UpstreamId DB = UpstreamId.of("db");
    private static final UpstreamId FILE = UpstreamId.of("file");
    private static final UpstreamId CACHE = UpstreamId.of("cache");
    private static final List<UpstreamId> CALLS = List.of(DB, FILE, UpstreamId.of("compute"), CACHE);

    private static Knobs parse(String query) {
        return Knobs.parse(QueryParams.parse(query), "/multi-aggregate", CALLS, Duration.ofSeconds(2), Duration.ofSeconds(30), true);
    }

    @Test
    void defaults() {
        Knobs k = parse("");
        assertEquals(Map.of(), k.overrides().delays());
        assertEquals(Set.of(), k.overrides().failures());
        assertEquals(Duration.ofSeconds(2), k.timeout());
    }

    @Test
    void repeatedAndCommaSeparatedValuesCombine() {
        Knobs k = parse("fail=db,file&fail=cache&delay=db:3s,file:0&delay=cache:20ms&timeout=150ms&n=1000&other=x");
        assertEquals(Set.of(DB, FILE, CACHE), k.overrides().failures());
        assertEquals(Map.of(DB, Duration.ofSeconds(3), FILE, Duration.ZERO, CACHE, Duration.ofMillis(20)),
                k.overrides().delays());
        assertEquals(Duration.ofMillis(150), k.timeout());
    }

    @Test
    void withoutClientKnobsFaultsAreNotInjectedAndTheDeadlineMayOnlyShrink() {
        Knobs k = Knobs.parse(QueryParams.parse("fail=db&delay=db:60s&timeout=150ms"), "/multi-aggregate", CALLS,
                Duration.ofSeconds(2), Duration.ofSeconds(30), false);
        assertEquals(Set.of(), k.overrides().failures(), "fail is an ordinary query parameter here");
        assertEquals(Map.of(), k.overrides().delays(), "so is delay");
        assertEquals(Duration.ofMillis(150), k.timeout(), "a client may always shorten the deadline");
        HttpError longer = assertThrows(HttpError.class, () -> Knobs.parse(QueryParams.parse("timeout=10s"),
                "/multi-aggregate", CALLS, Duration.ofSeconds(2), Duration.ofSeconds(30), false));
        assertEquals(400, longer.status());
        assertTrue(longer.getMessage().contains("this route's own deadline") && longer.getMessage().contains("clientKnobs"),
                longer.getMessage());
        assertEquals(Duration.ofSeconds(10), Knobs.parse(QueryParams.parse("timeout=10s"), "/multi-aggregate", CALLS,
                Duration.ofSeconds(2), Duration.ofSeconds(30), true).timeout(), "with clientKnobs, up to --max-timeout");
    }

    @Test
    void aServiceTheRouteDoesNotCallIsRefusedWithTheOnesItCalls() {
        HttpError e = assertThrows(HttpError.class, () -> Knobs.parse(QueryParams.parse("fail=cache"), "/block",
                List.of(DB), Duration.ofSeconds(2), Duration.ofSeconds(30), true));
        assertEquals(400, e.status());
        assertEquals("fail must be a service /block calls (db), got 'cache'", e.getMessage());
        HttpError delay = assertThrows(HttpError.class, () -> Knobs.parse(QueryParams.parse("delay=file:1s"), "/block",
                List.of(DB), Duration.ofSeconds(2), Duration.ofSeconds(30), true));
        assertEquals("delay must be a service /block calls (db), got 'file:1s'", delay.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fail=bogus                   | fail    | bogus
            fail=                        | fail    | ''
            fail=db,                     | fail    | ''
            delay=db                     | delay   | db
            delay=nope:1s                | delay   | nope:1s
            delay=db:abc                 | delay   | db:abc
            delay=db:-1s                 | delay   | db:-1s
            delay=db:61s                 | delay   | db:61s
            delay=db:1s&delay=db:2s      | delay   | db:2s
            timeout=0                    | timeout | 0
            timeout=abc                  | timeout | abc
            timeout=-5ms                 | timeout | -5ms
            timeout=31s                  | timeout | 31s
            timeout=99999999999999999ms  | timeout | 99999999999999999ms
            timeout=1s&timeout=2s        | timeout | 1s&2s
            """)
    void badValuesAre400sNamingTheParameterAndTheValue(String query, String parameter, String value) {
        HttpError e = assertThrows(HttpError.class, () -> parse(query));
        assertEquals(400, e.status());
        assertEquals("bad_parameter", e.code());
        assertTrue(e.getMessage().startsWith(parameter + " must be "), e.getMessage());
        assertTrue(e.getMessage().endsWith("got '" + value + "'"), e.getMessage());
    }
}
