package io.loomgate.remote;

import io.loomgate.call.RequestContext;
import io.loomgate.call.ServiceId;
import io.loomgate.call.UpstreamFailure;
import io.loomgate.call.Value;
import io.loomgate.config.Durations;
import io.loomgate.upstream.Upstream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One call to an HTTP upstream, on the calling (virtual) thread, with the request's remaining time
 * and no more. The upstream learns that time from {@code X-Loomgate-Deadline-Ms}, the request id from
 * {@code X-Request-Id} and the trace from {@code traceparent}.
 *
 * <p>The whole exchange, headers and body, is one future: an interrupt (a sibling failed, a winner
 * was found, the deadline passed) or the per-upstream timeout cancels it, which aborts the exchange,
 * so the upstream sees its connection close. Every other way the call can go wrong is an
 * {@link UpstreamFailure} with a reason a client may read.
 */
final class HttpUpstream implements Upstream {

    static final String DEADLINE_HEADER = "X-Loomgate-Deadline-Ms";
    private static final System.Logger LOG = System.getLogger("loomgate");

    private final ServiceId id;
    private final HttpSettings settings;
    private final HttpClient client;

    HttpUpstream(ServiceId id, HttpSettings settings, HttpClient client) {
        this.id = id;
        this.settings = settings;
        this.client = client;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        Duration left = ctx.remaining();
        if (!left.isPositive()) {
            throw new InterruptedException("the deadline has passed");
        }
        // The request's own deadline is the engine's to enforce: it interrupts this thread. A shorter
        // per-upstream timeout is enforced here.
        boolean capped = settings.timeout().filter(t -> t.compareTo(left) < 0).isPresent();
        Duration wait = capped ? settings.timeout().get() : left.plusSeconds(1);
        CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request(ctx, left),
                info -> new LimitedBody(settings.maxBodyBytes()));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new UpstreamFailure(id, "no complete answer within " + Durations.format(wait));
        } catch (ExecutionException e) {
            throw failure(e.getCause(), ctx);
        }
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            String why = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
            throw new UpstreamFailure(id, "answered HTTP " + status + why, OptionalInt.of(status));
        }
        return ResponseBodies.value(id, response.headers().firstValue("Content-Type"), response.body(), status);
    }

    private HttpRequest request(RequestContext ctx, Duration left) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(ctx)).GET()
                .header("X-Request-Id", ctx.requestId())
                .header(DEADLINE_HEADER, String.valueOf(Math.max(1, left.toMillis())))
                .header("traceparent", ctx.trace().child().header());
        for (String name : settings.forwardHeaders()) {
            List<String> values = ctx.headers().get(name);
            if (values != null) {
                values.forEach(v -> b.header(name, v));
            }
        }
        return b.build();
    }

    private URI uri(RequestContext ctx) {
        if (settings.forwardQuery().isEmpty()) {
            return settings.url();
        }
        StringJoiner query = new StringJoiner("&");
        for (String name : settings.forwardQuery()) {
            for (String value : ctx.query().all(name)) {
                query.add(encode(name) + "=" + encode(value));
            }
        }
        if (query.length() == 0) {
            return settings.url();
        }
        return URI.create(settings.url() + (settings.url().getRawQuery() == null ? "?" : "&") + query);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private UpstreamFailure failure(Throwable e, RequestContext ctx) {
        LOG.log(Level.DEBUG, () -> "request " + ctx.requestId() + ": " + id + ": " + e);
        return new UpstreamFailure(id, NetworkErrors.reason(e, settings.url()));
    }
}
