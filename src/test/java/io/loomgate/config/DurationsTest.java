package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"300ms,300", "2s,2000", "1m,60000", "2h,7200000", "0,0", "0ms,0", "0s,0", "007s,7000",
            "1.5s,1500", "0.25s,250", "0.5m,30000", "1.5h,5400000", "2.0ms,2",
            "1.00000000s,1000", "0.001h,3600", "999999999h,3599999996400000", "999999999.5s,999999999500", "0.00000000h,0"})
    void parsesTheUnitsAndDecimals(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "1d", "s", "-1s", " 1s", "1s ", "1S", "9999999999s", "1e3ms", "+1s", ".5s", "1.s",
            "1.5.5s", "1,5s"})
    void refusesEverythingElse(String text) {
        assertEquals(Durations.ACCEPTED,
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @Test
    void refusesWhatIsFinerThanAMillisecondSayingSo() {
        assertEquals(Durations.ACCEPTED + ", in whole milliseconds",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("1.5ms")).getMessage());
        assertEquals(Durations.ACCEPTED + ", in whole milliseconds",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("0.0001s")).getMessage());
        assertEquals(Durations.ACCEPTED + ", in whole milliseconds",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("0.12345678h")).getMessage());
    }

    @Test
    void parseWithinChecksTheRangeAndSaysWhatItAccepts() {
        assertEquals(Duration.ofMillis(300), Durations.parseWithin("300ms", Duration.ofMillis(1), Duration.ofSeconds(30)));
        for (String bad : new String[] {"abc", "0", "31s"}) {
            assertEquals("a duration from 1ms to 30s such as 300ms, 1.5s, 2m or 1h", assertThrows(IllegalArgumentException.class,
                    () -> Durations.parseWithin(bad, Duration.ofMillis(1), Duration.ofSeconds(30))).getMessage(), bad);
        }
    }

    @ParameterizedTest
    @CsvSource({"300,300ms", "2000,2s", "60000,1m", "0,0ms", "1500,1500ms", "90000,90s", "3600000,1h", "5400000,90m"})
    void printsInTheLargestExactUnit(long millis, String text) {
        assertEquals(text, Durations.format(Duration.ofMillis(millis)));
    }
}
