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
 * @param wire      what the access log adds: who, how much, how long upstream, which trace, and why it failed
 */
public record RequestSummary(String route, boolean started, String method, String rawPath, int status,
                             boolean delivered, boolean cutOff, String requestId, long nanos, String caller, String clientId,
                             Wire wire) {

    /**
     * @param client        the client's address, after {@code --trusted-proxies}; empty without a peer
     * @param userAgent     its {@code User-Agent}, or empty
     * @param bytesIn       the request body's length as declared ({@code Content-Length}), or 0
     * @param bytesOut      the response body's bytes written
     * @param upstreamNanos the time its upstream calls took, added up
     * @param traceId       the trace its upstreams were sent, or empty
     * @param reason        for a failure, its error code ({@code upstream_failed}, {@code client_gone}...); empty otherwise
     * @param protocol      the request's protocol ({@code HTTP/1.1})
     * @param proxied       for a proxied request: the endpoint of its last try, the upstream's status, its tries
     */
    public record Wire(String client, String userAgent, long bytesIn, long bytesOut, long upstreamNanos, String traceId,
                       String reason, String protocol, java.util.Optional<io.loomgate.http.RequestLedger.Proxied> proxied) {
        public static final Wire NONE = new Wire("", "", 0, 0, 0, "", "", "", java.util.Optional.empty());
    }

    public RequestSummary(String route, boolean started, String method, String rawPath, int status,
                          boolean delivered, boolean cutOff, String requestId, long nanos) {
        this(route, started, method, rawPath, status, delivered, cutOff, requestId, nanos, "", "", Wire.NONE);
    }
}
