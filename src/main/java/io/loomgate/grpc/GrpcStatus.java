package io.loomgate.grpc;

/**
 * gRPC's status codes (grpc/grpc doc/statuscodes.md), and the one loomgate sends when it ends a
 * gRPC request itself, from the HTTP status it would have answered: as Envoy does, the client gets
 * HTTP 200 with this code in {@code grpc-status}, since a gRPC client reads nothing else.
 */
public enum GrpcStatus {
    OK(0), CANCELLED(1), UNKNOWN(2), INVALID_ARGUMENT(3), DEADLINE_EXCEEDED(4), NOT_FOUND(5), ALREADY_EXISTS(6),
    PERMISSION_DENIED(7), RESOURCE_EXHAUSTED(8), FAILED_PRECONDITION(9), ABORTED(10), OUT_OF_RANGE(11),
    UNIMPLEMENTED(12), INTERNAL(13), UNAVAILABLE(14), DATA_LOSS(15), UNAUTHENTICATED(16);

    private final int code;

    GrpcStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /**
     * The code for an answer loomgate gives in place of the upstream's:
     *
     * <table>
     *   <tr><th>HTTP</th><th>gRPC</th><th>when</th></tr>
     *   <tr><td>400, 411, 413, 414, 431</td><td>INTERNAL (13)</td><td>the request broke a rule or a bound</td></tr>
     *   <tr><td>401</td><td>UNAUTHENTICATED (16)</td><td>no valid credentials</td></tr>
     *   <tr><td>403</td><td>PERMISSION_DENIED (7)</td><td>credentials without the right</td></tr>
     *   <tr><td>404, 405</td><td>UNIMPLEMENTED (12)</td><td>no route for the method</td></tr>
     *   <tr><td>408, 504</td><td>DEADLINE_EXCEEDED (4)</td><td>the request's deadline passed</td></tr>
     *   <tr><td>429</td><td>RESOURCE_EXHAUSTED (8)</td><td>a rate limit</td></tr>
     *   <tr><td>499</td><td>CANCELLED (1)</td><td>the client went away</td></tr>
     *   <tr><td>502, 503</td><td>UNAVAILABLE (14)</td><td>no upstream, a breaker open, shedding, draining</td></tr>
     *   <tr><td>any other</td><td>UNKNOWN (2)</td><td></td></tr>
     * </table>
     */
    public static GrpcStatus forGatewayAnswer(int httpStatus) {
        return switch (httpStatus) {
            case 200 -> OK;
            case 400, 411, 413, 414, 431 -> INTERNAL;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404, 405 -> UNIMPLEMENTED;
            case 408, 504 -> DEADLINE_EXCEEDED;
            case 429 -> RESOURCE_EXHAUSTED;
            case 499 -> CANCELLED;
            case 502, 503 -> UNAVAILABLE;
            default -> UNKNOWN;
        };
    }
}
