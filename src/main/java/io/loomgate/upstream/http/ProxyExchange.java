package io.loomgate.upstream.http;

import io.loomgate.config.Durations;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.upstream.Forward;
import io.loomgate.upstream.balance.Fleet;
import io.loomgate.upstream.cache.CacheControl;
import io.loomgate.upstream.cache.CachedCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A proxy route's request sent on to an {@link HttpUpstream}: to the endpoint its balance gives,
 * with the client's method, {@link ForwardedHeaders} and body, and the answer streamed back.
 */
final class ProxyExchange {

    private final HttpUpstream upstream;
    private final Endpoints endpoints;
    private final Http1Client client;
    private final Duration idleTimeout;
    private final HttpUpstream.Forwarding forwarding;
    private final Optional<CachedCalls> cache;

    ProxyExchange(HttpUpstream upstream, Endpoints endpoints, Http1Client client, Duration idleTimeout,
                  HttpUpstream.Forwarding forwarding, Optional<CachedCalls> cache) {
        this.cache = cache;
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
        String length = request.headers().first("Content-Length");
        long n = length == null ? -1 : Long.parseLong(length.strip());
        boolean hasBody = n > 0 || (length == null && request.headers().contains("Transfer-Encoding"));
        boolean upgrade = Tunnel.requested(request);
        TraceParent sent = ctx.trace().get().child();
        Headers forwarded = ForwardedHeaders.of(request, forwarding.trusted(), forwarding.scheme(), ctx, sent);
        CachedCalls.Ask ask = null;
        if (cache.isPresent() && request.method().equals("GET") && !hasBody && !upgrade) {
            CacheControl asked = CacheControl.parse(request.headers().all("Cache-Control"));
            if (!asked.noCache() && !asked.noStore()) {   // the client asks for the upstream's own answer
                ask = UpstreamCache.ask(ctx, upstream.target(ctx, upstream.first()) + forward.target(), forwarded, ctx.deadlineNanos());
                Optional<CachedCalls.Served> hit = cache.get().fresh(ask);
                if (hit.isPresent()) {
                    return stored(hit.get());
                }
            }
        }
        Fleet.Member<Origin> endpoint = endpoints.choose(ctx);
        Origin origin = endpoint.value();
        String target = upstream.target(ctx, origin) + forward.target();
        long sentAt = System.currentTimeMillis();
        OutgoingRequest out = new OutgoingRequest(request.method(), origin, target,
                upgrade ? Tunnel.asked(forwarded, request) : forwarded, hasBody ? new ClientBody(request.body()) : null, n);
        AttemptSpan span = AttemptSpan.start(ctx, sent, upstream.id(), request.method(), origin, target);
        Http1Response response;
        long started = endpoints.started(endpoint);
        try {
            response = client.send(out, ctx.deadlineNanos(), idleTimeout);
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
            if (clientsFault) {
                throw new HttpError(400, "bad_body", "the request body ended early or was not validly framed",
                        Map.of(), Map.of("Connection", "close"));
            }
            throw upstream.failure(e, ctx, "did not answer within " + Durations.format(ctx.timeout()), origin);
        } catch (RuntimeException e) {
            endpoints.ended(endpoint, null, started);
            throw e;
        }
        response.body().streaming(idleTimeout);
        if (response.status() == 101) {
            return Response.streamed(101, Tunnel.of(response, request.body()));
        }
        if (ask == null) {
            return Response.streamed(response.status(), ProxiedBody.of(response));
        }
        CachedCalls.Ask kept = ask;
        long cameAt = System.currentTimeMillis();
        Headers more = Headers.of("Cache-Status", "loomgate/" + upstream.id().value() + "; fwd=miss");
        return Response.streamed(response.status(), ProxiedBody.of(response, more, cache.get().largestStored(),
                body -> cache.get().offer(kept, new CachedCalls.Fetched(response.status(), ProxiedBody.endToEnd(response), body, sentAt,
                        cameAt))));
    }

    /** A stored answer, as a proxied one: its fields (with its {@code Age}) and {@code Cache-Status}, its body. */
    private Response stored(CachedCalls.Served hit) {
        Headers headers = hit.headers().plus("Cache-Status", "loomgate/" + upstream.id().value() + "; " + hit.cacheStatus());
        byte[] body = hit.body();
        return Response.streamed(hit.status(), new Response.Stream(headers, body.length, new Response.Writer() {
            @Override
            public void writeTo(java.io.OutputStream out) throws IOException {
                out.write(body);
            }

            @Override
            public void discard() {
                // nothing held open
            }
        }));
    }

}
