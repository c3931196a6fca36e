package io.loomgate.upstream.http;

import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A switched protocol through a proxy route (a WebSocket, say): the client's upgrade is forwarded
 * with its {@code Upgrade} and {@code Connection: Upgrade}, and the upstream's {@code 101} passed
 * back with them; then the bytes go both ways, each direction copied as it comes, until either side
 * closes. The client's side is read on a virtual thread of its own; the upstream's on the thread
 * that writes the answer. Only loomgate's server can carry one: it hands the handler the
 * connection's bytes after a {@code 101}.
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

    /** The upstream's {@code 101} as the client gets it, and the copying both ways as its body. */
    static Response.Stream of(Http1Response response, InputStream client) {
        Headers.Builder headers = Headers.builder().addAll(ProxiedBody.endToEnd(response));
        headers.add("Connection", "Upgrade");
        response.head().all("upgrade").forEach(v -> headers.add("Upgrade", v));
        Http1Body fromUpstream = response.body();
        OutputStream toUpstream = fromUpstream.tunnel();
        return new Response.Stream(headers.build(), -1, new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                out.flush();   // the 101 goes now
                Thread up = Thread.ofVirtual().name("tunnel-to-upstream").start(() -> pump(client, toUpstream));
                try (fromUpstream) {
                    byte[] buf = new byte[8192];
                    for (int n; (n = fromUpstream.read(buf)) >= 0; ) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                } catch (IOException closed) {
                    // either side went away: the tunnel is over
                } finally {
                    up.interrupt();
                }
            }

            @Override
            public void discard() {
                fromUpstream.close();
            }
        });
    }

    /** The client's bytes to the upstream, until the client closes; then the upstream is told so. */
    private static void pump(InputStream from, OutputStream to) {
        byte[] buf = new byte[8192];
        try (to) {
            for (int n; (n = from.read(buf)) >= 0; ) {
                to.write(buf, 0, n);
            }
        } catch (IOException | RuntimeException gone) {
            // either side went away
        }
    }

}
