package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({"300ms,300", "2s,2000", "1m,60000", "0,0", "0ms,0", "0s,0", "007s,7000"})
    void parsesTheThreeUnits(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), Durations.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "1h", "s", "-1s", "1.5s", " 1s", "1s ", "1S", "9999999999s", "1e3ms", "+1s"})
    void refusesEverythingElse(String text) {
        assertEquals(Durations.ACCEPTED,
                assertThrows(IllegalArgumentException.class, () -> Durations.parse(text)).getMessage());
    }

    @ParameterizedTest
    @CsvSource({"300,300ms", "2000,2s", "60000,1m", "0,0ms", "1500,1500ms", "90000,90s"})
    void printsInTheLargestExactUnit(long millis, String text) {
        assertEquals(text, Durations.format(Duration.ofMillis(millis)));
    }
}
