package io.loomgate.observe.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExportedBucketsTest {

    @ParameterizedTest
    @CsvSource({"1000000,0.001", "2500000,0.0025", "105000000,0.105", "2500000000,2.5", "7500000000,7.5", "60000000000,60",
            "1,0.000000001", "0,0", "1000000001,1.000000001"})
    void secondsArePrintedInTheFewestDecimalsThatAreExact(long nanos, String seconds) {
        assertEquals(seconds, ExportedBuckets.seconds(nanos));
    }

    @Test
    void everyLabelIsWhatThePlainDecimalOfItsBoundSays() {
        for (int i = 0; i < ExportedBuckets.BOUNDS.length; i++) {
            assertEquals(BigDecimal.valueOf(ExportedBuckets.BOUNDS[i], 9).stripTrailingZeros().toPlainString(), ExportedBuckets.LABELS[i]);
        }
        assertEquals(85, ExportedBuckets.LABELS.length);
    }
}
