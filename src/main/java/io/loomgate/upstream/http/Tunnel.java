package io.loomgate.upstream.http;

import io.loomgate.client.UpstreamBody;
import io.loomgate.client.UpstreamResponse;
import io.loomgate.client.ResponseHead;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.core.port.TunnelLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A switched protocol through a proxy route (a WebSocket, say): the client's upgrade is forwarded
 * with its {@code Upgrade} and {@code Connection: Upgrade}, and the upstream's {@code 101} passed
 * back with them; then the bytes go both ways, each direction copied as it comes, until either side
 * closes, nothing has passed either way for the route's idle timeout, or its lifetime is over. The
 * client's side is read on a virtual thread of its own; the upstream's on the thread that writes
 * the answer; a third, parked, watches the clock. Only loomgate's server can carry one: it hands
 * the handler the connection's bytes after a {@code 101}.
 *
 * <p>A {@code 101} opens a tunnel only when it answers what the client asked: its {@code Upgrade}
 * names a protocol the client offered, and for {@code websocket} its {@code Sec-WebSocket-Accept}
 * is the one the client's {@code Sec-WebSocket-Key} requires (RFC 6455 section 4.1); otherwise an
 * upstream that answers 101 to anything would turn the route into a raw channel past its prefix
 * and its per-request limits.
 */
final class Tunnel {

    private Tunnel() {
    }

    /** A {@code GET} without a body that asks to switch protocols. */
    static boolean requested(Request request) {
        return request.method().equals("GET") && request.headers().contains("Upgrade")
                && !request.headers().contains("Content-Length") && !request.headers().contains("Transfer-Encoding")
                && HopByHop.named(request.headers().all("Connection")).contains("upgrade");
    }

    /** The forwarded request's headers, with the {@code Upgrade} the hop-by-hop rules took out (the codec adds {@code Connection: Upgrade}). */
    static Headers asked(Headers forwarded, Request request) {
        Headers.Builder h = Headers.builder().addAll(forwarded);
        request.headers().all("Upgrade").forEach(v -> h.add("Upgrade", v));
        return h.build();
    }

    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    /** Why the upstream's {@code 101} does not answer {@code request}'s upgrade; empty when it does. Never quotes what either sent. */
    static Optional<String> refusal(Request request, ResponseHead answer) {
        List<String> offered = tokens(request.headers().all("Upgrade"));
        List<String> chosen = tokens(answer.all("upgrade"));
        if (chosen.isEmpty()) {
            return Optional.of("answered 101 without an Upgrade");
        }
        if (!offered.containsAll(chosen)) {
            return Optional.of("answered 101 with a protocol the client did not ask for");
        }
        if (chosen.contains("websocket")) {
            String key = request.headers().first("Sec-WebSocket-Key");
            List<String> accepts = answer.all("sec-websocket-accept");
            String accept = accepts.size() == 1 ? accepts.getFirst() : null;
            if (key == null || accept == null || !accept.strip().equals(accept(key.strip()))) {
                return Optional.of("answered a WebSocket upgrade without the Sec-WebSocket-Accept its key requires");
            }
        }
        return Optional.empty();
    }

    /** RFC 6455 section 4.2.2: base64 of the SHA-1 of the key and the protocol's GUID. */
    static String accept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The protocol names an {@code Upgrade} field lists, lower-case ({@code websocket}, {@code h2c}). */
    private static List<String> tokens(List<String> lines) {
        return lines.stream().flatMap(l -> Arrays.stream(l.split(","))).map(String::strip).filter(t -> !t.isEmpty())
                .map(t -> t.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * The upstream's {@code 101} as the client gets it, and the copying both ways as its body, until
     * either side closes, nothing passes either way for {@code idle}, or {@code limits}' lifetime ends.
     */
    static Response.Stream of(UpstreamResponse response, InputStream client, TunnelLimits limits, Duration idle) {
        Headers.Builder headers = Headers.builder().addAll(ProxiedBody.endToEnd(response));
        headers.add("Connection", "Upgrade");
        response.head().all("upgrade").forEach(v -> headers.add("Upgrade", v));
        UpstreamBody fromUpstream = response.body();
        OutputStream toUpstream = fromUpstream.tunnel();
        TunnelClock clock = new TunnelClock(limits.idleTimeout().orElse(idle), limits.maxLifetime());
        return new Response.Stream(headers.build(), -1, new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                out.flush();   // the 101 goes now
                Thread up = Thread.ofVirtual().name("tunnel-to-upstream").start(() -> pump(client, toUpstream, clock));
                Thread watch = clock.watch(fromUpstream::close);
                try (fromUpstream) {
                    byte[] buf = new byte[8192];
                    for (int n; (n = fromUpstream.read(buf)) >= 0; ) {
                        clock.moved();
                        out.write(buf, 0, n);
                        out.flush();
                    }
                } catch (IOException closed) {
                    // either side went away, or the clock ran out: the tunnel is over
                } finally {
                    up.interrupt();
                    watch.interrupt();
                }
            }

            @Override
            public void discard() {
                fromUpstream.close();
            }
        });
    }

    /** The client's bytes to the upstream, until the client closes; then the upstream is told so. */
    private static void pump(InputStream from, OutputStream to, TunnelClock clock) {
        byte[] buf = new byte[8192];
        try (to) {
            for (int n; (n = from.read(buf)) >= 0; ) {
                clock.moved();
                to.write(buf, 0, n);
            }
        } catch (IOException | RuntimeException gone) {
            // either side went away
        }
    }

}
