package io.loomgate.remote;

import io.loomgate.call.RequestContext;
import io.loomgate.call.ServiceId;
import io.loomgate.call.UpstreamFailure;
import io.loomgate.call.Value;
import io.loomgate.config.Durations;
import io.loomgate.upstream.Upstream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * One call to an HTTP upstream, on the calling thread, with the request's remaining time and no
 * more. The upstream learns that time from {@code X-Loomgate-Deadline-Ms}, the request id from
 * {@code X-Request-Id} and the trace from {@code traceparent}.
 *
 * <p>An interrupt (a sibling failed, a winner was found, the deadline passed) stops the exchange
 * and closes its connection, so the upstream sees it abandoned. Every other way the call can go
 * wrong is an {@link UpstreamFailure} with a reason a client may read.
 */
final class HttpUpstream implements Upstream {

    static final String DEADLINE_HEADER = "X-Loomgate-Deadline-Ms";
    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Duration BACKUP_SLACK = Duration.ofSeconds(1);

    private final ServiceId id;
    private final HttpSettings settings;
    private final Origin origin;
    private final Http1Client client;

    HttpUpstream(ServiceId id, HttpSettings settings, Http1Client client) {
        this.id = id;
        this.settings = settings;
        this.origin = Origin.of(settings.url());
        this.client = client;
    }

    @Override
    public Value call() throws UpstreamFailure, InterruptedException {
        RequestContext ctx = RequestContext.current();
        Duration left = ctx.remaining();
        if (!left.isPositive()) {
            throw new InterruptedException("the deadline has passed");
        }
        // The request's deadline is the engine's to enforce (it interrupts this thread); the socket
        // waits a little longer only as a backup. A shorter per-upstream timeout is enforced here.
        boolean capped = settings.timeout().filter(t -> t.compareTo(left) < 0).isPresent();
        Duration wait = capped ? settings.timeout().get() : left.plus(BACKUP_SLACK);
        OutgoingRequest request = OutgoingRequest.get(origin, target(ctx), headers(ctx, left));
        try (Http1Response response = client.send(request, System.nanoTime() + wait.toNanos())) {
            int status = response.status();
            if (status < 200 || status > 299) {
                String why = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
                throw new UpstreamFailure(id, "answered HTTP " + status + why, OptionalInt.of(status));
            }
            byte[] body = read(response.body(), settings.maxBodyBytes(), status);
            return ResponseBodies.value(id, response.header("content-type"), body, status);
        } catch (IOException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException("cancelled during the exchange");
            }
            if (e instanceof SocketTimeoutException) {
                throw new UpstreamFailure(id, "no complete answer within " + Durations.format(wait));
            }
            LOG.log(Level.DEBUG, () -> "request " + ctx.requestId() + ": " + id + ": " + e);
            throw new UpstreamFailure(id, NetworkErrors.reason(e, settings.url()));
        }
    }

    /** At most {@code limit} bytes; one more is a failure, and the rest is never read. */
    private byte[] read(InputStream in, int limit, int status) throws IOException, UpstreamFailure {
        byte[] buf = new byte[Math.min(limit + 1, 8192)];
        int n = 0;
        for (int r; (r = in.read(buf, n, buf.length - n)) >= 0; ) {
            n += r;
            if (n > limit) {
                throw new UpstreamFailure(id, "response body over the " + limit + "-byte limit", OptionalInt.of(status));
            }
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, Math.min(buf.length * 2, limit + 1));
            }
        }
        return Arrays.copyOf(buf, n);
    }

    private List<String[]> headers(RequestContext ctx, Duration left) {
        List<String[]> h = new ArrayList<>(6);
        h.add(new String[] {"X-Request-Id", ctx.requestId()});
        h.add(new String[] {DEADLINE_HEADER, String.valueOf(Math.max(1, left.toMillis()))});
        h.add(new String[] {"traceparent", ctx.trace().get().child().header()});
        for (String name : settings.forwardHeaders()) {
            List<String> values = ctx.headers().get(name);
            if (values != null) {
                values.forEach(v -> h.add(new String[] {name, v}));
            }
        }
        return h;
    }

    private String target(RequestContext ctx) {
        if (settings.forwardQuery().isEmpty()) {
            return origin.target();
        }
        StringJoiner query = new StringJoiner("&");
        for (String name : settings.forwardQuery()) {
            for (String value : ctx.query().all(name)) {
                query.add(encode(name) + "=" + encode(value));
            }
        }
        return query.length() == 0 ? origin.target() : origin.withQuery(query.toString());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
