package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.ServiceOptions;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import io.loomgate.service.CallPlan;
import io.loomgate.service.ServiceName;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KnobsTest {

    private static final ServiceOptions OPTIONS;

    static {
        try {
            OPTIONS = CommandLine.config().services();
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Knobs parse(String query) {
        return Knobs.parse(QueryParams.parse(query), OPTIONS, true);
    }

    @Test
    void defaults() {
        Knobs k = parse("");
        assertEquals(Map.of(), k.delays());
        assertEquals(Set.of(), k.failures());
        assertEquals(Duration.ofSeconds(2), k.timeout());
        assertEquals(CallPlan.DEFAULT_N, k.n());
    }

    @Test
    void repeatedAndCommaSeparatedValuesCombine() {
        Knobs k = parse("fail=db,file&fail=cache&delay=db:3s,file:0&delay=cache:20ms&timeout=150ms&n=1000&other=x");
        assertEquals(Set.of(ServiceName.DB, ServiceName.FILE, ServiceName.CACHE), k.failures());
        assertEquals(Map.of(ServiceName.DB, Duration.ofSeconds(3), ServiceName.FILE, Duration.ZERO,
                ServiceName.CACHE, Duration.ofMillis(20)), k.delays());
        assertEquals(Duration.ofMillis(150), k.timeout());
        assertEquals(1000, k.n());
    }

    @Test
    void nIsIgnoredWhereComputeDoesNotRun() {
        assertEquals(CallPlan.DEFAULT_N, Knobs.parse(QueryParams.parse("n=bogus"), OPTIONS, false).n());
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
            n=1                          | n       | 1
            n=10000001                   | n       | 10000001
            n=abc                        | n       | abc
            n=1e3                        | n       | 1e3
            n=-7                         | n       | -7
            n=99999999999999999999       | n       | 99999999999999999999
            n=5&n=6                      | n       | 5&6
            """)
    void badValuesAre400sNamingTheParameterAndTheValue(String query, String parameter, String value) {
        HttpError e = assertThrows(HttpError.class, () -> parse(query));
        assertEquals(400, e.status());
        assertEquals("bad_parameter", e.code());
        assertTrue(e.getMessage().startsWith(parameter + " must be "), e.getMessage());
        assertTrue(e.getMessage().endsWith("got '" + value + "'"), e.getMessage());
    }
}
