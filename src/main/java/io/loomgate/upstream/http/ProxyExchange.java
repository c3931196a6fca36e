package io.loomgate.upstream.http;

import io.loomgate.client.Http1Client;
import io.loomgate.client.UpstreamResponse;
import io.loomgate.client.OutgoingRequest;
import io.loomgate.client.ClientBody;
import io.loomgate.client.Origin;
import io.loomgate.config.Durations;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.template.Template;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.rewrite.Redirects;
import io.loomgate.rewrite.RequestValues;
import io.loomgate.upstream.BufferedBody;
import io.loomgate.core.port.Forward;
import io.loomgate.core.port.ProxyRules;
import io.loomgate.upstream.balance.Fleet;
import io.loomgate.upstream.cache.CacheLocks;
import io.loomgate.upstream.cache.CachedCalls;
import io.loomgate.upstream.cache.TargetedControl;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * A proxy route's request sent on to an {@link HttpUpstream}: to the endpoint its balance gives,
 * with the client's method, {@link ForwardedHeaders} and body, and the answer streamed back.
 */
final class ProxyExchange {

    private final HttpUpstream upstream;
    private final UpstreamEndpoints endpoints;
    private final Http1Client client;
    private final Duration idleTimeout;
    private final HttpUpstream.Forwarding forwarding;
    private final Optional<ProxyCache> cache;
    private final UpstreamCaches caches;
    /** How long a background refresh of a proxied answer may take. */
    private static final Duration REFRESH_LIMIT = Duration.ofSeconds(30);
    /** The longest one read of a tunnel's upstream side may wait: its idle timeout and lifetime end it before. */
    private static final Duration TUNNEL_READ_LIMIT = Duration.ofDays(30);

    ProxyExchange(HttpUpstream upstream, UpstreamEndpoints endpoints, Http1Client client, Duration idleTimeout,
                  HttpUpstream.Forwarding forwarding, UpstreamCaches caches) {
        this.cache = caches.own().map(c -> new ProxyCache(c.calls(), upstream.id().value()));
        this.caches = caches;
        this.upstream = upstream;
        this.endpoints = endpoints;
        this.client = client;
        this.idleTimeout = idleTimeout;
        this.forwarding = forwarding;
    }

    /**
     * Sends the client's method, headers ({@link ForwardedHeaders}) and body to this upstream's URL
     * followed by {@code target}; the answer's head must come within the request's deadline, and
     * then its body streams with no more than the idle timeout between bytes.
     */
    Response forward(Forward forward) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        Request request = forward.request();
        Template.Values values = RequestValues.of(ctx, ForwardedHeaders.clientIp(request, forwarding.trusted()));
        Response answer = forward(forward, ctx, request, values);
        if (cache.isPresent()) {
            answer = answer.withStreamedHeaders(ProxyCache::forClient);
        }
        ProxyRules rules = forward.rules();
        return answer.withStreamedHeaders(h -> rules.responseHeaders().apply(rules.cookies().rewrite(Redirects.rewrite(h,
                upstream.bases(), () -> Redirects.clientBase(forwarding.scheme(), request.headers().first("Host"), forward.prefix()))),
                values));
    }

    private Response forward(Forward forward, RequestContext ctx, Request request, Template.Values values)
            throws UpstreamFailure, InterruptedException {
        String length = request.headers().first("Content-Length");
        long n = length == null ? -1 : Long.parseLong(length.strip());
        boolean hasBody = n > 0 || (length == null && request.headers().contains("Transfer-Encoding"));
        if (n > forward.rules().maxBodyBytes()) {   // declared too large: refused at once, the upstream never called
            throw BufferedBody.tooLarge(forward.rules().maxBodyBytes());
        }
        boolean upgrade = Tunnel.requested(request);
        TraceParent sent = ctx.trace().get().child();
        Proxying proxying = upstream.proxying();
        Headers rewritten = forward.rules().requestHeaders().apply(ForwardedHeaders.of(request, forwarding.trusted(),
                forwarding.scheme(), ctx, sent, proxying.forwarded(), forward.prefix()), values);
        boolean read = request.method().equals("HEAD") || request.method().equals("GET");
        boolean cacheable = cache.isPresent() && read && !hasBody && !upgrade;
        Headers forwarded = cacheable ? TargetedControl.advertised(rewritten) : rewritten;   // the cache names itself a surrogate
        ProxyCache.Turn turn = ProxyCache.Turn.NONE;
        if (cache.isPresent() && !read) {
            turn = cache.get().passed("fwd=method");   // RFC 9211: the method is not one the cache serves
        } else if (cache.isPresent() && !cacheable) {
            turn = cache.get().passed("fwd=bypass");
        } else if (cacheable) {
            String below = forward.target();
            ProxyCache.Before before = cache.get().before(ctx, request, forwarded, upstream.target(ctx, upstream.first()) + below,
                    conditions -> whole(ctx, below, forwarded, conditions));
            if (before instanceof ProxyCache.Before.Served served) {
                return served.response();
            }
            turn = ((ProxyCache.Before.Go) before).turn();
        }
        try {
            return send(ctx, new Outbound(forward, turn.fields(forwarded), sent, hasBody, n, upgrade), turn);
        } catch (UpstreamFailure | InterruptedException | RuntimeException e) {
            boolean left = e instanceof InterruptedException || Thread.currentThread().isInterrupted()
                    || System.nanoTime() - ctx.deadlineNanos() >= 0;
            // it left, or its own deadline passed: a waiter goes instead; the upstream failed: each goes on its own
            turn.release(left ? CacheLocks.Ended.ABANDONED : CacheLocks.Ended.NOT_STORED);
            throw e;
        }
    }

    /**
     * The request as it goes upstream.
     *
     * @param fields  its fields, rewritten and with the forwarding ones
     * @param sent    the trace context it carries
     * @param length  its declared body length, -1 for none declared
     * @param upgrade whether it asks to switch protocols (a WebSocket)
     */
    private record Outbound(Forward forward, Headers fields, TraceParent sent, boolean hasBody, long length, boolean upgrade) {
    }

    /** {@link #forward}, once the cache had nothing to serve: the request sent to an endpoint, its answer streamed back. */
    private Response send(RequestContext ctx, Outbound o, ProxyCache.Turn turn) throws UpstreamFailure, InterruptedException {
        Forward forward = o.forward();
        CachedCalls.Ask ask = turn.ask();
        Request request = forward.request();
        Fleet.Member<Origin> endpoint = endpoints.choose(ctx);
        Origin origin = endpoint.value();
        String target = upstream.target(ctx, origin) + forward.target();
        long sentAt = System.currentTimeMillis();
        String clientHost = request.headers().first("Host");
        Optional<String> host = upstream.proxying().preserveHost() && ForwardedHeaders.validHost(clientHost)
                ? Optional.of(clientHost.strip()) : Optional.empty();
        OutgoingRequest out = new OutgoingRequest(request.method(), origin, target,
                o.upgrade() ? Tunnel.asked(o.fields(), request) : o.fields(),
                o.hasBody() ? new ClientBody(request.body(), forward.rules().maxBodyBytes()) : null, o.length(), host,
                ProxiedBody.interim(request.interim()));
        TrySpan span = TrySpan.start(ctx, o.sent(), upstream.id(), request.method(), origin, target);
        UpstreamResponse response;
        long started = endpoints.started(endpoint);
        try {
            response = client.send(out, ctx.deadlineNanos(), idleTimeout, ctx.timeout());
            if (span != null) {
                span.answered(response.status());
            }
            endpoints.ended(endpoint, endpoints.failedBy(response.status()), started);   // at the head: the body streams on
        } catch (IOException e) {
            boolean cancelled = Thread.currentThread().isInterrupted() || e instanceof java.io.InterruptedIOException;
            if (span != null) {
                span.failed(e, cancelled);
            }
            boolean clientsFault = ClientBody.failed(e);
            endpoints.ended(endpoint, endpoints.failedBy(e, cancelled), started);
            if (ClientBody.tooLarge(e)) {
                throw BufferedBody.tooLarge(forward.rules().maxBodyBytes());
            }
            if (clientsFault) {
                throw BufferedBody.badBody();
            }
            if (turn.onError().isPresent() && !cancelled) {
                return cache.get().staleOnError(turn, "fwd=stale; detail=stale-if-error", request);
            }
            throw upstream.failure(e, ctx, "did not answer within " + Durations.format(ctx.timeout()), origin);
        } catch (RuntimeException e) {
            endpoints.ended(endpoint, null, started);
            throw e;
        }
        if (response.body().ended()) {
            response.sender().await();   // no body to stream: a server may end the exchange with the head (the JDK's does)
        }
        int status = response.status();
        if (caches.holdsAny()) {   // an upstream without a cache builds no target for every proxied request
            caches.invalidate(request.method(), status, upstream.target(ctx, upstream.first()) + forward.target(),
                    response.head().headers(), origin);
        }
        if (turn.onError().isPresent() && (status == 500 || status == 502 || status == 503 || status == 504)) {   // errors, as RFC 5861 counts them
            response.body().close();
            return cache.get().staleOnError(turn, "fwd=stale; fwd-status=" + status + "; detail=stale-if-error", request);
        }
        if (status == 304 && turn.revalidates()) {   // the stored answer is still good: refreshed, and served
            response.body().close();
            return cache.get().notModified(turn, ProxiedBody.endToEnd(response), sentAt, request);
        }
        if (response.status() == 101) {
            Optional<String> refused = Tunnel.refusal(request, response.head());
            if (refused.isPresent()) {   // nothing is tunnelled, and the switched connection is closed
                response.body().close();
                throw new UpstreamFailure(upstream.id(), refused.get(), java.util.OptionalInt.of(101));
            }
            response.body().streaming(TUNNEL_READ_LIMIT);   // the tunnel's own clock ends it sooner
            return Response.streamed(101, Tunnel.of(response, request.body(), forward.tunnel(), idleTimeout));
        }
        response.body().streaming(idleTimeout);
        if (ask == null) {
            return Response.streamed(response.status(), turn.bypassed().isEmpty() ? ProxiedBody.of(response)
                    : ProxiedBody.of(response, turn.bypassed(), 0, ProxiedBody.Keeper.NONE));
        }
        CachedCalls calls = cache.get().calls();
        Headers more = cache.get().forwarded(turn, status);
        Headers fields = ProxiedBody.endToEnd(response);
        if (!calls.mayStore(ask, status, fields) || response.framing().length() > calls.largestStored()) {
            turn.release(CacheLocks.Ended.NOT_STORED);   // those waiting go on their own now
            return Response.streamed(status, ProxiedBody.of(response, more, 0, ProxiedBody.Keeper.NONE));
        }
        return Response.streamed(status, ProxiedBody.of(response, more, calls.largestStored(),
                new Storing(calls, ask, new CachedCalls.Fetched(status, fields, null, sentAt, System.currentTimeMillis()), turn)));
    }

    /** A proxied answer stored as it streams, and the lock identical misses wait on ended when it has. */
    private record Storing(CachedCalls cache, CachedCalls.Ask ask, CachedCalls.Fetched head, ProxyCache.Turn turn)
            implements ProxiedBody.Keeper {
        @Override
        public void whole(byte[] body) {
            boolean stored = cache.offer(ask, new CachedCalls.Fetched(head.status(), head.headers(), body, head.requestMillis(),
                    head.responseMillis()));
            ended(stored ? CacheLocks.Ended.STORED : CacheLocks.Ended.NOT_STORED);
        }

        @Override
        public void tooLong() {
            ended(CacheLocks.Ended.NOT_STORED);   // it streams on, never to be stored: those waiting go now
        }

        @Override
        public void ended(boolean complete) {
            ended(complete ? CacheLocks.Ended.NOT_STORED : CacheLocks.Ended.ABANDONED);
        }

        private void ended(CacheLocks.Ended how) {
            turn.release(how);
        }
    }

    /**
     * The answer to a proxied {@code GET} read whole, for a background refresh: at most the cache's
     * largest answer, else it is not stored (and the refresh gives up). Runs on the refresh's thread.
     */
    private CachedCalls.Fetched whole(RequestContext ctx, String below, Headers forwarded, Headers conditions) throws IOException {
        Fleet.Member<Origin> endpoint = endpoints.choose(ctx);
        Origin origin = endpoint.value();
        OutgoingRequest out = new OutgoingRequest("GET", origin, upstream.target(ctx, origin) + below,
                conditions.isEmpty() ? forwarded : forwarded.plus(conditions), null, 0);
        Boolean failed = null;
        long asked = System.currentTimeMillis();
        long started = endpoints.started(endpoint);
        try (UpstreamResponse r = client.send(out, System.nanoTime() + REFRESH_LIMIT.toNanos(), idleTimeout)) {
            failed = endpoints.failedBy(r.status());
            long largest = cache.orElseThrow().calls().largestStored();
            byte[] body = r.body().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, largest + 1));
            if (body.length > largest) {
                throw new IOException("the answer is larger than the cache stores");
            }
            return new CachedCalls.Fetched(r.status(), ProxiedBody.endToEnd(r), body, asked, System.currentTimeMillis());
        } catch (IOException e) {
            failed = failed != null ? failed : endpoints.failedBy(e, Thread.currentThread().isInterrupted());
            throw e;
        } finally {
            endpoints.ended(endpoint, failed, started);
        }
    }
}
