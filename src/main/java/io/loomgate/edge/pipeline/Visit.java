package io.loomgate.edge.pipeline;

import io.loomgate.config.AddressRanges;
import io.loomgate.edge.RouteEdge;
import io.loomgate.edge.routing.Route;
import io.loomgate.http.Caller;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.RequestLedger;
import io.loomgate.http.RequestTarget;
import io.loomgate.observe.event.Events;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request on its way through the pipeline: what the listener read, and what the filters learn
 * of it, in their declared order, each thing once: its id ({@code request-id}), its target
 * ({@code framing}), its route; from the route on, the {@link Request} handlers see, the one
 * immutable state of the request ({@link io.loomgate.core.call.RequestContext} is a view over it),
 * which the {@code body} filter gives its body and the {@code auth} filter its caller, each by
 * replacing it whole. No field is written from outside: each has one method that sets it, and a
 * second setting is a bug that fails loudly. How the answer goes out is {@link Answering}'s.
 * A visit belongs to one request and is handed from thread to thread only through the
 * {@link Handoff}, so it needs no locks.
 */
public final class Visit {

    private final Exchange exchange;
    private final long arrival;
    private final Headers headers;
    private final AddressRanges trustedProxies;
    private final RequestLedger ledger = new RequestLedger();
    private final ClientGone clientGone = new ClientGone(ledger);
    private final Answering answering = new Answering();
    private byte[] clientKey;

    private String id = "-";
    private String clientId = "";
    private RequestTarget target;
    private Route route;
    private String routeKey = Events.UNMATCHED;
    private Request request;
    private boolean admitted;
    private boolean tunnel;
    private Headers limitHeaders = Headers.EMPTY;

    Visit(Exchange exchange, AddressRanges trustedProxies) {
        this.exchange = exchange;
        this.arrival = exchange.arrivalNanos();
        this.headers = exchange.headers();
        this.trustedProxies = trustedProxies;
    }

    Exchange exchange() {
        return exchange;
    }

    RequestLedger ledger() {
        return ledger;
    }

    ClientGone clientGone() {
        return clientGone;
    }

    /** How the answer goes out: the pipeline's to write, the filters' to read on the way out and at the end. */
    Answering answering() {
        return answering;
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

    /** The client's own {@code X-Request-Id}, kept beside the request id; empty when none. */
    String clientId() {
        return clientId;
    }

    /** The request-id filter's: the id, and the client's own. */
    void identified(String givenId, String givenClientId) {
        once(id.equals("-"), "id");
        this.id = Objects.requireNonNull(givenId);
        this.clientId = Objects.requireNonNull(givenClientId);
    }

    /** The decoded target, once the framing filter checked it. */
    RequestTarget target() {
        return target;
    }

    /** The framing filter's. */
    void framed(RequestTarget checked) {
        once(target == null, "target");
        this.target = Objects.requireNonNull(checked);
    }

    /** The matched route, once the route filter found one. */
    public Optional<Route> route() {
        return Optional.ofNullable(route);
    }

    /** The matched route; only for filters after {@code route}, which run only when one matched. */
    Route matched() {
        return Objects.requireNonNull(route, "no route matched");
    }

    /** The route's pattern for metrics and logs: {@link Events#UNMATCHED}, or the pattern even when its method was refused. */
    String routeKey() {
        return routeKey;
    }

    /** The matched route's edge settings; none before a route matched. */
    public RouteEdge edge() {
        return route == null ? RouteEdge.NONE : route.edge();
    }

    /** The route filter's, for a match: the request handlers see is built here, with no body yet and no caller. */
    void routed(Route found, Map<String, String> params) {
        once(route == null, "route");
        this.route = found;
        this.routeKey = found.path();
        this.request = new Request(id, method(), target.path(), target.query(), params, headers, arrival, exchange.uri(),
                remote(), InputStream.nullInputStream(), Caller.ANONYMOUS, clientId, ledger, exchange::interim);
    }

    /** The route filter's, for a path whose method was refused: the pattern, for the metrics. */
    void unmatched(String pattern) {
        this.routeKey = pattern;
    }

    /** The request as handlers see it, from the route on; the caller filled in once authenticated. */
    public Request request() {
        return request;
    }

    /** The body filter's: the body handlers read (the exchange's own, or none once discarded). */
    void body(InputStream body) {
        this.request = request.withBody(body);
    }

    /** The auth filter's: who calls. */
    void caller(Caller who) {
        this.request = request.by(who);
    }

    /** Whether the admission filter gave the request a place, so its work moves to the {@link Handoff}. */
    boolean admitted() {
        return admitted;
    }

    void admit() {
        once(!admitted, "admission");
        this.admitted = true;
    }

    /** Whether the tunnel filter gave the request a tunnel's place. */
    boolean holdsTunnel() {
        return tunnel;
    }

    void tunnelOpened() {
        once(!tunnel, "tunnel");
        this.tunnel = true;
    }

    /** The rate-limit filter's {@code RateLimit-*} fields for the answer. */
    Headers limitHeaders() {
        return limitHeaders;
    }

    void limited(Headers fields) {
        this.limitHeaders = Objects.requireNonNull(fields);
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

    private static void once(boolean first, String what) {
        if (!first) {
            throw new IllegalStateException("a request's " + what + " is set once; a filter set it again");
        }
    }
}
