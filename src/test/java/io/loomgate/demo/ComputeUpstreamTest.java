package io.loomgate.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.core.call.RequestContext;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The compute service's own knob, {@code n}: checked before any call, read during the call. */
class ComputeUpstreamTest {

    @Test
    void nDefaultsAndIsReadFromTheRequest() throws Exception {
        assertEquals(ComputeUpstream.DEFAULT_N, ComputeUpstream.n(QueryParams.parse("")));
        assertEquals(1000, ComputeUpstream.n(QueryParams.parse("n=1000&other=x")));
        RequestContext ctx = RequestContext.of("r1", "/compute", Duration.ofSeconds(1),
                QueryParams.parse("n=1000"), io.loomgate.core.call.Overrides.NONE);
        PrimeSum sum = (PrimeSum) RequestContext.callWith(ctx, () -> new ComputeUpstream().call());
        assertEquals(new PrimeSum(1000, 168, 76127), sum);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            n=1                          | 1
            n=10000001                   | 10000001
            n=abc                        | abc
            n=1e3                        | 1e3
            n=-7                         | -7
            n=99999999999999999999       | 99999999999999999999
            n=5&n=6                      | 5&6
            """)
    void badValuesAre400sNamingTheParameterAndTheValue(String query, String value) {
        HttpError e = assertThrows(HttpError.class, () -> new ComputeUpstream().check(RequestContext.of("r", "/compute",
                java.time.Duration.ofSeconds(1), QueryParams.parse(query), io.loomgate.core.call.Overrides.NONE)));
        assertEquals(400, e.status());
        assertEquals("bad_parameter", e.code());
        assertTrue(e.getMessage().startsWith("n must be "), e.getMessage());
        assertTrue(e.getMessage().endsWith("got '" + value + "'"), e.getMessage());
    }
}
