package io.loomgate.observe;

/**
 * Told about every request the gateway handles: metrics and the access log listen here. Calls come
 * on the request's own thread, so implementations must be cheap and must not block.
 */
public interface RequestObserver {

    /** The route key of requests that matched no route: one key, so random paths cannot grow memory. */
    String UNMATCHED = "unmatched";

    /** A matched request's handler is about to run. */
    void started(String route);

    /** A request is over: answered, or abandoned by its client. */
    void finished(RequestSummary summary);

    /** One observer that tells several, in order. */
    static RequestObserver all(RequestObserver... observers) {
        return new RequestObserver() {
            @Override
            public void started(String route) {
                for (RequestObserver o : observers) {
                    o.started(route);
                }
            }

            @Override
            public void finished(RequestSummary summary) {
                for (RequestObserver o : observers) {
                    o.finished(summary);
                }
            }
        };
    }

    /**
     * @param route     the route key ({@link #UNMATCHED} when none matched)
     * @param started   whether {@link #started} was called for it
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
    record RequestSummary(String route, boolean started, String method, String rawPath, int status,
                          boolean delivered, boolean cutOff, String requestId, long nanos, String caller, String clientId) {

        public RequestSummary(String route, boolean started, String method, String rawPath, int status,
                              boolean delivered, boolean cutOff, String requestId, long nanos) {
            this(route, started, method, rawPath, status, delivered, cutOff, requestId, nanos, "", "");
        }
    }
}
