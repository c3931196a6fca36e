package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which X-Forwarded-Port values (and Host ports) are ports: one to five ASCII digits, at most 65535. */
class ForwardedPortTest {

    @Test
    void aPortIsOneToFiveAsciiDigitsUpTo65535() {
        Map<String, Boolean> cases = Map.ofEntries(
                Map.entry("80", true), Map.entry(" 8080 ", true), Map.entry("65535", true), Map.entry("0", true),
                Map.entry("00080", true), Map.entry("65536", false), Map.entry("99999", false),
                Map.entry("123456", false), Map.entry("", false), Map.entry("  ", false), Map.entry("8a", false),
                Map.entry("-1", false), Map.entry("+80", false), Map.entry("8 0", false),
                Map.entry("\u0663", false), Map.entry("80\r\n", true));
        cases.forEach((value, port) -> assertEquals(port, ForwardedHeaders.validPort(value), "'" + value + "'"));
        assertEquals(false, ForwardedHeaders.validPort(null));
    }
}
