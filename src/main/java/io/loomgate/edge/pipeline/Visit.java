package io.loomgate.edge.pipeline;

import io.loomgate.config.AddressRanges;
import io.loomgate.edge.RouteEdge;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.RequestLedger;
import io.loomgate.http.Request;
import io.loomgate.http.RequestTarget;
import io.loomgate.observe.Events;
import io.loomgate.edge.routing.Route;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;

/**
 * One request on its way through the pipeline: what the listener read, and what the filters found
 * so far (its id, its route, the request as handlers see it, who is calling). It belongs to one
 * request and is handed from thread to thread only through the {@link Handoff}, so it needs no locks.
 */
public final class Visit {

    private final Exchange exchange;
    private final long arrival;
    private final Headers headers;
    private final AddressRanges trustedProxies;
    private byte[] clientKey;

    String id = "-";
    String clientId = "";
    RequestTarget target;
    Route route;
    Map<String, String> params = Map.of();
    String routeKey = Events.UNMATCHED;
    Request request;
    boolean admitted;
    boolean tunnel;
    boolean started;
    Headers answerHeaders = Headers.EMPTY;
    int status = 500;
    Delivery delivery = Delivery.WHOLE;
    IOException unfinished;
    final RequestLedger ledger = new RequestLedger();
    final ClientGone clientGone = new ClientGone(ledger);
    long bytesOut;
    String reason = "";

    Visit(Exchange exchange, AddressRanges trustedProxies) {
        this.exchange = exchange;
        this.arrival = exchange.arrivalNanos();
        this.headers = exchange.headers();
        this.trustedProxies = trustedProxies;
    }

    Exchange exchange() {
        return exchange;
    }

    /** {@link System#nanoTime()} when the listener saw the request's first byte. */
    public long arrival() {
        return arrival;
    }

    public String method() {
        return exchange.method();
    }

    public Headers headers() {
        return headers;
    }

    public InetSocketAddress remote() {
        return exchange.remote();
    }

    /** The request id; {@code -} until the request-id filter gave one. */
    public String id() {
        return id;
    }

    /** The matched route, once the route filter found one. */
    public Optional<Route> route() {
        return Optional.ofNullable(route);
    }

    /** The matched route's edge settings; none before a route matched. */
    public RouteEdge edge() {
        return route == null ? RouteEdge.NONE : route.edge();
    }

    /** The request as handlers see it, once the body filter made it; the caller filled in once authenticated. */
    public Request request() {
        return request;
    }

    AddressRanges trustedProxies() {
        return trustedProxies;
    }

    /** True when the connection's peer is one of {@code --trusted-proxies}. */
    public boolean fromTrustedProxy() {
        InetSocketAddress peer = remote();
        return peer != null && trustedProxies.contains(peer.getAddress());
    }

    /** What limits key this client by: its address ({@link ClientAddress}), an IPv6 one by its /64. */
    public byte[] clientKey() {
        if (clientKey == null) {
            clientKey = ClientAddress.limitKey(ClientAddress.of(remote(), headers, trustedProxies));
        }
        return clientKey;
    }

    /** The answer's status, once it was decided. */
    public int status() {
        return status;
    }
}
