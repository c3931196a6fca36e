package io.loomgate.observe;

/**
 * A request, over: what the metrics and the access log hear of it.
 *
 * @param route     the route key ({@link Events#UNMATCHED} when none matched)
 * @param started   whether its handler started
 * @param method    the request method
 * @param rawPath   the path as sent, for logs only
 * @param status    the status answered
 * @param delivered false when the client went away before the answer was written
 * @param cutOff    true when a streamed answer was cut off because its source (the upstream) failed
 * @param requestId the request id
 * @param nanos     from the first byte read to the end of the response
 * @param caller    the API key's name or the token's subject, when the route authenticated one; empty otherwise
 * @param clientId  the client's own {@code X-Request-Id}, when it was kept beside the request id; empty otherwise
 */
public record RequestSummary(String route, boolean started, String method, String rawPath, int status,
                             boolean delivered, boolean cutOff, String requestId, long nanos, String caller, String clientId) {

    public RequestSummary(String route, boolean started, String method, String rawPath, int status,
                          boolean delivered, boolean cutOff, String requestId, long nanos) {
        this(route, started, method, rawPath, status, delivered, cutOff, requestId, nanos, "", "");
    }
}
