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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A reverse-proxy route ({@code "policy": "proxy"}): forwards the method, the path below the
 * route's prefix, the query, the headers (less hop-by-hop ones, plus {@code X-Forwarded-For},
 * {@code X-Forwarded-Proto} and {@code Via}) and the body to one HTTP upstream, and streams its
 * answer back as it comes. The deadline covers the wait for the upstream's headers; the body then
 * flows at the client's pace. An upstream that cannot be reached is a 502, one that does not answer
 * in time a 504, both as loomgate's JSON errors.
 */
public final class ProxyEndpoint implements Handler {

    private final String prefix;
    private final ServiceId upstream;
    private final URI base;
    private final HttpClient client;
    private final Duration timeout;

    /**
     * @param prefix   what the route's paths start with, e.g. {@code /api/}
     * @param base     the upstream's URL; the path below the prefix is appended to it
     * @param timeout  how long to wait for the upstream's response headers
     */
    public ProxyEndpoint(String prefix, ServiceId upstream, URI base, HttpClient client, Duration timeout) {
        this.prefix = prefix;
        this.upstream = upstream;
        this.base = base;
        this.client = client;
        this.timeout = timeout;
    }

    @Override
    public Response handle(Request request) throws InterruptedException {
        Duration left = timeout.minusNanos(System.nanoTime() - request.arrivalNanos());
        CompletableFuture<HttpResponse<InputStream>> exchange = client.sendAsync(forward(request, left),
                HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response;
        try {
            response = exchange.get(Math.max(1, left.toNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new HttpError(504, "gateway_timeout", upstream + " did not answer within " + Durations.format(timeout));
        } catch (ExecutionException e) {
            throw new HttpError(502, "bad_gateway", upstream + ": " + NetworkErrors.reason(e.getCause(), base));
        }
        return Response.streamed(response.statusCode(), stream(response));
    }

    private HttpRequest forward(Request request, Duration left) {
        String rawPath = request.target().getRawPath();
        String suffix = rawPath.length() > prefix.length() ? rawPath.substring(prefix.length()) : "";
        String query = request.target().getRawQuery();
        URI target = URI.create(base + suffix + (query == null ? "" : "?" + query));
        HttpRequest.Builder b = HttpRequest.newBuilder(target).method(request.method(), body(request));
        Headers in = request.headers();
        Set<String> skip = HopByHop.of(in);
        in.forEach((name, values) -> {
            if (!skip.contains(name.toLowerCase(java.util.Locale.ROOT)) && !HopByHop.notForwardable(name)
                    && !isSetHere(name)) {
                values.forEach(v -> b.header(name, v));
            }
        });
        String client = request.remote() == null ? "unknown" : request.remote().getAddress().getHostAddress();
        String forwardedFor = in.getFirst("X-Forwarded-For");
        b.header("X-Forwarded-For", forwardedFor == null ? client : forwardedFor + ", " + client);
        b.header("X-Forwarded-Proto", in.getFirst("X-Forwarded-Proto") == null ? "http" : in.getFirst("X-Forwarded-Proto"));
        b.header("Via", via(in.getFirst("Via")));
        b.header("X-Request-Id", request.id());
        b.header("traceparent", TraceParent.fromHeader(in.getFirst("traceparent")).child().header());
        b.header(HttpUpstream.DEADLINE_HEADER, String.valueOf(Math.max(1, left.toMillis())));
        return b.build();
    }

    private static boolean isSetHere(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "x-forwarded-for", "x-forwarded-proto", "via", "x-request-id", "traceparent", "x-loomgate-deadline-ms" -> true;
            default -> false;
        };
    }

    private static String via(String previous) {
        return previous == null ? "1.1 loomgate" : previous + ", 1.1 loomgate";
    }

    private static HttpRequest.BodyPublisher body(Request request) {
        Headers h = request.headers();
        String length = h.getFirst("Content-Length");
        if (length == null && !h.containsKey("Transfer-Encoding")) {
            return HttpRequest.BodyPublishers.noBody();
        }
        HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(request::body);
        long n = length == null ? -1 : Long.parseLong(length.trim());
        return n == 0 ? HttpRequest.BodyPublishers.noBody()
                : n > 0 ? HttpRequest.BodyPublishers.fromPublisher(stream, n) : stream;
    }

    /** Copies as bytes arrive, flushing whenever the upstream has sent all it has for now. */
    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[16 * 1024];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
            if (in.available() == 0) {
                out.flush();
            }
        }
    }

    private static Response.Stream stream(HttpResponse<InputStream> response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        Set<String> skip = HopByHop.of(response.headers().map());
        response.headers().map().forEach((name, values) -> {
            String lower = name.toLowerCase(java.util.Locale.ROOT);
            if (!skip.contains(lower) && !lower.equals("content-length") && !lower.startsWith(":")) {
                headers.put(name, values);
            }
        });
        headers.put("Via", List.of(via(response.headers().firstValue("Via").orElse(null))));
        long length = response.headers().firstValueAsLong("Content-Length").orElse(-1);
        InputStream body = response.body();
        return new Response.Stream(headers, length, new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                try (body) {
                    copy(body, out);
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
}
