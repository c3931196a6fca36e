package io.loomgate.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** grpc-timeout read strictly and written back in 8 digits; the gateway's own answers as gRPC codes. */
class GrpcTimeoutTest {

    @Test
    void eachUnitIsRead() {
        assertEquals(Optional.of(Duration.ofHours(1)), GrpcTimeout.parse("1H"));
        assertEquals(Optional.of(Duration.ofMinutes(2)), GrpcTimeout.parse("2M"));
        assertEquals(Optional.of(Duration.ofSeconds(3)), GrpcTimeout.parse("3S"));
        assertEquals(Optional.of(Duration.ofMillis(250)), GrpcTimeout.parse("250m"));
        assertEquals(Optional.of(Duration.ofNanos(7_000)), GrpcTimeout.parse("7u"));
        assertEquals(Optional.of(Duration.ofNanos(99_999_999)), GrpcTimeout.parse("99999999n"));
    }

    @Test
    void anythingElseIsNoTimeout() {
        for (String bad : new String[] {"", "S", "100", "123456789S", "1.5S", "-1S", "1s", "1 S", " 1S", "1SS", "１S"}) {
            assertEquals(Optional.empty(), GrpcTimeout.parse(bad), bad);
        }
        assertEquals(Optional.empty(), GrpcTimeout.parse(null));
    }

    @Test
    void whatIsLeftIsWrittenInTheFinestUnitThatFitsEightDigits() {
        assertEquals("1500000u", GrpcTimeout.format(Duration.ofMillis(1_500)));
        assertEquals("99999999n", GrpcTimeout.format(Duration.ofNanos(99_999_999)));
        assertEquals("100000u", GrpcTimeout.format(Duration.ofNanos(100_000_000)));
        assertEquals("3600000m", GrpcTimeout.format(Duration.ofHours(1)));
        assertEquals("0n", GrpcTimeout.format(Duration.ofMillis(-5)), "a deadline already past");
        assertEquals(Optional.of(Duration.ofMillis(1_500)), GrpcTimeout.parse(GrpcTimeout.format(Duration.ofMillis(1_500))));
    }

    @Test
    void theGatewaysOwnAnswersMapToTheCodesTheIssueNames() {
        assertEquals(14, GrpcStatus.forGatewayAnswer(503).code());
        assertEquals(14, GrpcStatus.forGatewayAnswer(502).code());
        assertEquals(4, GrpcStatus.forGatewayAnswer(504).code());
        assertEquals(16, GrpcStatus.forGatewayAnswer(401).code());
        assertEquals(8, GrpcStatus.forGatewayAnswer(429).code());
        assertEquals(12, GrpcStatus.forGatewayAnswer(404).code());
        assertEquals(2, GrpcStatus.forGatewayAnswer(418).code());
    }
}
