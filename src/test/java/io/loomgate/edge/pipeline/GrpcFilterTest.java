package io.loomgate.edge.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** gRPC's percent-encoding of grpc-message, which a gRPC client decodes (gRPC over HTTP/2, "Responses"). */
class GrpcFilterTest {

    @Test
    void printableAsciiStaysAndEveryOtherOctetAndPercentIsEncoded() {
        assertEquals("no route for /a", GrpcFilter.percentEncoded("no route for /a"));
        assertEquals("caf%C3%A9 100%25", GrpcFilter.percentEncoded("caf\u00e9 100%"));
        assertEquals("a%0Ab%09", GrpcFilter.percentEncoded("a\nb\t"));
    }
}
