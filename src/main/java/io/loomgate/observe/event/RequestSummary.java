package io.loomgate.observe.event;

import io.loomgate.http.RequestLedger;
import java.util.Optional;

/**
 * A request, over: what the metrics and the access log hear of it, in three parts: what was asked
 * and by whom ({@link Asked}), how it ended ({@link Ending}), and what the access log adds
 * ({@link Wire}). The accessors below read through to the part that holds each.
 */
public record RequestSummary(Asked asked, Ending ending, Wire wire) {

    /**
     * @param route     the route key ({@link Events#UNMATCHED} when none matched)
     * @param method    the request method
     * @param rawPath   the path as sent, for logs only
     * @param requestId the request id
     * @param clientId  the client's own {@code X-Request-Id}, when it was kept beside the request id; empty otherwise
     * @param caller    the API key's name or the token's subject, when the route authenticated one; empty otherwise
     */
    public record Asked(String route, String method, String rawPath, String requestId, String clientId, String caller) {
    }

    /**
     * @param started  whether its handler started
     * @param status   the status answered
     * @param delivery how the answer went out: whole, the client gone, cut off by its upstream
     * @param nanos    from the first byte read to the end of the response
     */
    public record Ending(boolean started, int status, Delivery delivery, long nanos) {
    }

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
                       String reason, String protocol, Optional<RequestLedger.Proxied> proxied) {
        public static final Wire NONE = new Wire("", "", 0, 0, 0, "", "", "", Optional.empty());
    }

    public String route() {
        return asked.route();
    }

    public String method() {
        return asked.method();
    }

    public String rawPath() {
        return asked.rawPath();
    }

    public String requestId() {
        return asked.requestId();
    }

    public String clientId() {
        return asked.clientId();
    }

    public String caller() {
        return asked.caller();
    }

    public boolean started() {
        return ending.started();
    }

    public int status() {
        return ending.status();
    }

    public long nanos() {
        return ending.nanos();
    }

    /** False when the client went away before the answer was written. */
    public boolean delivered() {
        return ending.delivery() != Delivery.CLIENT_GONE;
    }

    /** True when a streamed answer was cut off because its source (the upstream) failed. */
    public boolean cutOff() {
        return ending.delivery() == Delivery.CUT_OFF;
    }
}
