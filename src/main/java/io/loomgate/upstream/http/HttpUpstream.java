package io.loomgate.upstream.http;

import io.loomgate.client.Http1Client;
import io.loomgate.client.UpstreamResponse;
import io.loomgate.client.IdleTimeout;
import io.loomgate.client.MalformedResponse;
import io.loomgate.client.OutgoingRequest;
import io.loomgate.client.Origin;
import io.loomgate.config.AddressRanges;
import io.loomgate.config.Durations;
import io.loomgate.core.call.Propagation;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.call.Value;
import io.loomgate.core.port.Call;
import io.loomgate.core.port.Extensions;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.tls.ClientTls;
import io.loomgate.tls.TlsException;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import io.loomgate.rewrite.Redirects;
import io.loomgate.upstream.EndpointState;
import io.loomgate.upstream.Operated;
import io.loomgate.core.port.Forward;
import io.loomgate.core.port.Forwarder;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.balance.Fleet;
import io.loomgate.upstream.cache.CachedCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * An HTTP upstream: a call whose answer is embedded in an aggregation or a composition, or a proxy
 * route's request forwarded as it came. Its URL may hold placeholders ({@code /users/{id}}), filled
 * in from each request as {@link io.loomgate.core.template.Template} says. Both run on the calling thread, with the request's remaining time and no
 * more, and send the {@link Propagation} headers.
 *
 * <p>An interrupt (a sibling failed, a winner was found, the deadline passed) stops the exchange
 * and closes its connection, so the upstream sees it abandoned. Every other way the exchange can go
 * wrong is an {@link UpstreamFailure} with a reason a client may read.
 */
final class HttpUpstream implements Upstream, Forwarder, Operated {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration BACKUP_SLACK = Duration.ofSeconds(1);

    private final UpstreamId id;
    private final HttpSettings settings;
    private final UpstreamEndpoints endpoints;
    private final Http1Client client;
    private final Forwarding forwarding;
    private final UpstreamCaches caches;
    private final ProxyExchange proxy;
    private final List<String> bases;

    /** What a proxy route needs to know about the listener its requests came in on. */
    record Forwarding(AddressRanges trusted, String scheme) {
    }

    HttpUpstream(UpstreamId id, HttpSettings settings, Http1Client client, Forwarding forwarding) {
        this.id = id;
        this.settings = settings;
        this.endpoints = new UpstreamEndpoints(id, settings, settings.https() ? Optional.of(trust(settings)) : Optional.empty(), client);
        this.client = client;
        this.forwarding = forwarding;
        this.caches = new UpstreamCaches(id.value(), settings.cache(), settings.timeout());
        this.bases = Redirects.bases(settings.urls());
        this.proxy = new ProxyExchange(this, endpoints, client, settings.idleTimeout(), forwarding, caches);
    }

    Proxying proxying() {
        return settings.proxying();
    }

    /** How a URL pointing at it starts ({@link Redirects#bases}): a redirect there is brought back through the gateway. */
    List<String> bases() {
        return bases;
    }

    /** The route file checked the CA file at startup; it cannot fail here unless it changed since. */
    private static ClientTls trust(HttpSettings settings) {
        try {
            return ClientTls.trusting(settings.caFile());
        } catch (TlsException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        return call(Call.PLAIN);
    }

    /**
     * A plain call gets this upstream's URL, with the forwarded query; a shaped one (a compose call)
     * its method, its path and query below the URL's path, its headers and its body.
     */
    @Override
    public Value call(Call call) throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        Duration left = ctx.remaining();
        if (!left.isPositive()) {
            throw new InterruptedException("the deadline has passed");
        }
        // The request's deadline and a call's own timeout are the engine's to enforce (it interrupts
        // this thread: DrivenTask); the socket waits a little longer only as a backup. A shorter
        // per-upstream timeout ("timeout" on the upstream) is this upstream's own, enforced here.
        Duration wait = left.plus(BACKUP_SLACK);
        if (settings.timeout().isPresent() && settings.timeout().get().compareTo(wait) < 0) {
            wait = settings.timeout().get();
        }
        TraceParent sent = ctx.trace().get().child();
        Headers.Builder headers = Propagation.headers(ctx, sent);
        for (String name : settings.forwardHeaders()) {
            if (Propagation.passesOn(ctx, name.toLowerCase(java.util.Locale.ROOT))) {
                ctx.headers().all(name).forEach(v -> headers.add(name, v));
            }
        }
        headers.addAll(call.headers());
        call.contentType().ifPresent(t -> headers.add("Content-Type", t));
        Headers fields = headers.build();
        return caches.call(this, ctx, call, fields, sent, wait);
    }

    /**
     * One try: to the endpoint the balance gives, with {@code conditions} (a revalidation's) added,
     * the answer read whole (a 2xx body up to {@code maxBodyBytes}; an error body past it is left
     * out). May run on a cache's shared-call thread, with the request's context passed in.
     */
    CachedCalls.Fetched exchange(RequestContext ctx, Call call, Headers fields, TraceParent sent, Duration wait, Headers conditions)
            throws UpstreamFailure, InterruptedException {
        Fleet.Member<Origin> endpoint = endpoints.choose(ctx);
        Origin origin = endpoint.value();
        String target = callTarget(ctx, origin, call);
        byte[] body = call.body();
        OutgoingRequest request = new OutgoingRequest(call.method(), origin, target, conditions.isEmpty() ? fields : fields.plus(conditions),
                body == null ? null : new ByteArrayInputStream(body), body == null ? 0 : body.length);
        TrySpan span = TrySpan.start(ctx, sent, id, call.method(), origin, target);
        Boolean endpointFailed = null;   // null: nothing learnt of the endpoint (the call was cancelled)
        long asked = System.currentTimeMillis();
        long started = endpoints.started(endpoint);
        try (UpstreamResponse response = client.send(request, System.nanoTime() + wait.toNanos(), settings.idleTimeout())) {
            int status = response.status();
            endpointFailed = endpoints.failedBy(status);
            if (span != null) {
                span.answered(status);
            }
            byte[] answer;
            try {
                answer = ResponseBodies.read(id, response.body(), settings.maxBodyBytes(), status);
            } catch (UpstreamFailure tooLarge) {
                if (status >= 200 && status <= 299) {
                    throw tooLarge;
                }
                answer = null;   // an error body over the limit is not passed on; the status still is
            }
            return new CachedCalls.Fetched(status, response.head().headers(), answer, asked, System.currentTimeMillis());
        } catch (IOException e) {
            boolean cancelled = Thread.currentThread().isInterrupted() || e instanceof java.io.InterruptedIOException;
            endpointFailed = endpoints.failedBy(e, cancelled);
            if (span != null) {
                span.failed(e, cancelled);
            }
            throw failure(e, ctx, "no complete answer within " + Durations.format(wait), origin);
        } finally {
            endpoints.ended(endpoint, endpointFailed, started);
        }
    }

    /** A call's path and query at {@code origin}: the URL's, filled in, with the forwarded query and the call's own below it. */
    String callTarget(RequestContext ctx, Origin origin, Call call) {
        String base = withForwardedQuery(target(ctx, origin), ctx);
        return call.target().isEmpty() ? base : Origin.below(base, call.target());
    }

    /** The call's value, or, for an answer that is not a 2xx, a failure that carries the status (and a JSON body a route may pass on). */
    Value answer(int status, Headers headers, byte[] body) throws UpstreamFailure {
        Optional<String> contentType = Optional.ofNullable(headers.first("content-type"));
        if (status >= 200 && status <= 299) {
            return ResponseBodies.value(id, contentType, body, status);
        }
        String why = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
        Optional<String> json = body != null && ResponseBodies.isJson(contentType) ? ResponseBodies.json(body) : Optional.empty();
        throw new UpstreamFailure(id, "answered HTTP " + status + why, OptionalInt.of(status), json);
    }

    /** The first endpoint, whose URL names the answers a cache keeps. */
    Origin first() {
        return endpoints.first();
    }

    UpstreamId id() {
        return id;
    }

    @Override
    public void activate() {
        endpoints.startChecks();
    }

    @Override
    public void deactivate() {
        endpoints.stopChecks();
    }

    @Override
    public List<EndpointState> endpoints() {
        return endpoints.state();
    }

    @Override
    public List<CachedCalls> caches() {
        return caches.all();
    }

    @Override
    public void callsDeclared(List<Extensions> calls) {
        caches.declared(calls);
    }

    @Override
    public boolean replicated() {
        return endpoints.replicated();
    }

    /** A request is refused (400) before any call when this upstream's URL cannot be filled in from it. */
    @Override
    public void check(RequestContext ctx) {
        target(ctx, endpoints.first());
    }

    /** The URL's path and query, its placeholders filled in from the request. */
    String target(RequestContext ctx, Origin origin) {
        try {
            return origin.target().url(p -> Bindings.request(ctx, p));
        } catch (UnsafeValue e) {
            throw HttpError.badRequest("bad_parameter", "a value of this request cannot be sent to " + id + ": " + e.getMessage());
        }
    }

    /**
     * Sends the client's request on to this upstream, as {@link ProxyExchange} does: its method,
     * headers and body, the answer's head within the request's deadline, then its body streamed.
     */
    @Override
    public Response forward(Forward forward) throws UpstreamFailure, InterruptedException {
        return proxy.forward(forward);
    }

    /** What a failed exchange means: cancelled, too late, or a reason a client may read. */
    UpstreamFailure failure(IOException e, RequestContext ctx, String late, Origin origin) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("cancelled during the exchange");
        }
        if (e instanceof IdleTimeout) {
            return UpstreamFailure.timedOut(id, e.getMessage());
        }
        if (e instanceof SocketTimeoutException) {
            return UpstreamFailure.timedOut(id, late);
        }
        if (e instanceof MalformedResponse) {
            LOG.log(Level.WARNING, "request " + ctx.requestId() + ": " + id + ": " + e.getMessage() + "; connection closed");
            return UpstreamFailure.malformed(id, e.getMessage());
        }
        String down = endpoints.allDown() ? "every endpoint is down (ejected or failing its health checks); " : "";
        LOG.log(Level.INFO, () -> "request " + ctx.requestId() + ": " + id + ": " + down + NetworkErrors.detail(e, origin));
        return new UpstreamFailure(id, down + NetworkErrors.reason(e));
    }

    private String withForwardedQuery(String target, RequestContext ctx) {
        if (settings.forwardQuery().isEmpty()) {
            return target;
        }
        StringJoiner query = new StringJoiner("&");
        for (String name : settings.forwardQuery()) {
            for (String value : ctx.query().all(name)) {
                query.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }
        return Origin.withQuery(target, query.toString());
    }
}
