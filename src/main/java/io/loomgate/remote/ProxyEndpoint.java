package io.loomgate.remote;

import com.sun.net.httpserver.Headers;
import io.loomgate.call.ServiceId;
import io.loomgate.call.TraceParent;
import io.loomgate.config.Durations;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.routing.Handler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A reverse-proxy route ({@code "policy": "proxy"}): forwards the method, the path below the
 * route's prefix, the query, the headers (less hop-by-hop ones, plus {@code X-Forwarded-For},
 * {@code X-Forwarded-Proto} and {@code Via}) and the body to one HTTP upstream, and streams its
 * answer back as it comes. The deadline covers the wait for the upstream's response head; the body
 * then flows at the client's pace. An upstream that cannot be reached is a 502, one that does not
 * answer in time a 504, both as loomgate's JSON errors.
 */
public final class ProxyEndpoint implements Handler {

    private static final long STREAM_NANOS = Duration.ofHours(1).toNanos();
    private static final Set<String> SET_HERE = Set.of("x-forwarded-for", "x-forwarded-proto", "via", "x-request-id",
            "traceparent", "x-loomgate-deadline-ms");

    private final String prefix;
    private final ServiceId upstream;
    private final URI base;
    private final Origin origin;
    private final Http1Client client;
    private final Duration timeout;

    /**
     * @param prefix  what the route's paths start with, e.g. {@code /api/}
     * @param base    the upstream's URL; the path below the prefix is appended to it
     * @param timeout how long to wait for the upstream's response head
     */
    ProxyEndpoint(String prefix, ServiceId upstream, URI base, Http1Client client, Duration timeout) {
        this.prefix = prefix;
        this.upstream = upstream;
        this.base = base;
        this.origin = Origin.of(base);
        this.client = client;
        this.timeout = timeout;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        long deadline = request.arrivalNanos() + timeout.toNanos();
        Http1Response response;
        try {
            response = client.send(forward(request, deadline), deadline);
            response.bodyDeadline(System.nanoTime() + STREAM_NANOS);
        } catch (IOException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException("cancelled while waiting for " + upstream);
            }
            if (e instanceof SocketTimeoutException) {
                throw new HttpError(504, "gateway_timeout", upstream + " did not answer within " + Durations.format(timeout));
            }
            throw new HttpError(502, "bad_gateway", upstream + ": " + NetworkErrors.reason(e, base));
        }
        return Response.streamed(response.status(), stream(response, request.method()));
    }

    private OutgoingRequest forward(Request request, long deadline) {
        String rawPath = request.target().getRawPath();
        String suffix = rawPath.length() > prefix.length() ? rawPath.substring(prefix.length()) : "";
        String query = request.target().getRawQuery();
        String target = origin.target() + suffix + (query == null ? "" : "?" + query);
        Headers in = request.headers();
        Set<String> named = HopByHop.named(in.get("Connection"));
        List<String[]> headers = new ArrayList<>(in.size() + 6);
        in.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!HopByHop.notForwardable(lower) && !named.contains(lower) && !SET_HERE.contains(lower)) {
                values.forEach(v -> headers.add(new String[] {name, v}));
            }
        });
        String client = request.remote() == null ? "unknown" : request.remote().getAddress().getHostAddress();
        String forwardedFor = in.getFirst("X-Forwarded-For");
        String proto = in.getFirst("X-Forwarded-Proto");
        headers.add(new String[] {"X-Forwarded-For", forwardedFor == null ? client : forwardedFor + ", " + client});
        headers.add(new String[] {"X-Forwarded-Proto", proto == null ? "http" : proto});
        headers.add(new String[] {"Via", via(in.getFirst("Via"))});
        headers.add(new String[] {"X-Request-Id", request.id()});
        headers.add(new String[] {"traceparent", TraceParent.fromHeader(in.getFirst("traceparent")).child().header()});
        long left = (deadline - System.nanoTime()) / 1_000_000;
        headers.add(new String[] {HttpUpstream.DEADLINE_HEADER, String.valueOf(Math.max(1, left))});
        String length = in.getFirst("Content-Length");
        boolean hasBody = length != null || in.containsKey("Transfer-Encoding");
        long n = length == null ? -1 : Long.parseLong(length.trim());
        return new OutgoingRequest(request.method(), origin, target, headers, hasBody && n != 0 ? request.body() : null, n);
    }

    private static String via(String previous) {
        return previous == null ? "1.1 loomgate" : previous + ", 1.1 loomgate";
    }

    private static Response.Stream stream(Http1Response response, String method) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        Set<String> named = HopByHop.named(response.headers().get("connection"));
        response.headers().forEach((name, values) -> {
            if (!HopByHop.isHopByHop(name) && !named.contains(name) && !name.equals("content-length")) {
                headers.put(name, values);
            }
        });
        headers.put("Via", List.of(via(response.header("via").orElse(null))));
        int status = response.status();
        boolean empty = method.equals("HEAD") || status == 204 || status == 304;
        long length = empty && !method.equals("HEAD") ? 0 : response.contentLength();
        InputStream body = response.body();
        return new Response.Stream(headers, length, new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                try (body) {
                    copy(body, out, length);
                }
            }

            @Override
            public void discard() {
                try {
                    body.close();
                } catch (IOException ignored) {
                    // the upstream exchange is aborted either way
                }
            }
        });
    }

    /** Copies as bytes arrive, flushing after each read so nothing waits in a buffer for more. */
    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buf = new byte[length > 0 && length < 16 * 1024 ? (int) length : 16 * 1024];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
            out.flush();
        }
    }
}
