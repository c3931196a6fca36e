package io.loomgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A request's deadline, capped by what its caller has left: a calling loomgate's, or a gRPC client's. */
class CallerDeadlineTest {

    private static final Duration OWN = Duration.ofSeconds(2);

    @Test
    void aCallersShorterDeadlineWinsAndALongerOneIsIgnored() {
        assertEquals(OWN, CallerDeadline.cap(Headers.EMPTY, OWN));
        assertEquals(Duration.ofMillis(300), CallerDeadline.cap(Headers.of(CallerDeadline.HEADER, "300"), OWN));
        assertEquals(OWN, CallerDeadline.cap(Headers.of(CallerDeadline.HEADER, "9000"), OWN));
        assertThrows(HttpError.class, () -> CallerDeadline.cap(Headers.of(CallerDeadline.HEADER, "soon"), OWN));
    }

    @Test
    void aGrpcTimeoutShortensTheDeadlineAndAMalformedOneIsNoTimeout() {
        assertEquals(Duration.ofMillis(200), CallerDeadline.cap(Headers.of("grpc-timeout", "200m"), OWN));
        assertEquals(OWN, CallerDeadline.cap(Headers.of("grpc-timeout", "1H"), OWN), "never lengthened");
        assertEquals(OWN, CallerDeadline.cap(Headers.of("grpc-timeout", "200x"), OWN), "gRPC: not a timeout");
        assertEquals(Duration.ofMillis(1), CallerDeadline.cap(Headers.of("grpc-timeout", "5n"), OWN), "at least 1 ms");
        assertEquals(Duration.ofMillis(100), CallerDeadline.cap(Headers.of("grpc-timeout", "200m", CallerDeadline.HEADER, "100"), OWN),
                "the sooner of the two");
    }
}
