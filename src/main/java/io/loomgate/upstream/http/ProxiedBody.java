package io.loomgate.upstream.http;

import io.loomgate.client.UpstreamBody;
import io.loomgate.client.UpstreamResponse;
import io.loomgate.client.MalformedResponse;
import io.loomgate.http.BodyAborted;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Set;

/**
 * An upstream's answer as a proxy route passes it on: its headers less the hop-by-hop ones (and
 * those its {@code Connection} header names) and its framing, with loomgate's {@code Via}; its body
 * copied as it comes, flushed after each read. When the upstream's body fails part way, the copy
 * throws {@link BodyAborted} and the server cuts the client's response off.
 */
final class ProxiedBody {

    private ProxiedBody() {
    }

    /** The answer's end-to-end headers, with loomgate's {@code Via}: the hop-by-hop ones and its framing left out. */
    static Headers endToEnd(UpstreamResponse response) {
        Headers.Builder headers = Headers.builder();
        Set<String> named = HopByHop.named(response.head().all("connection"));
        headers.addAll(response.head().headers(), name -> !HopByHop.isHopByHop(name) && !name.equalsIgnoreCase("content-length")
                && (named.isEmpty() || !named.contains(name.toLowerCase(Locale.ROOT))));
        headers.add("Via", ForwardedHeaders.via(response.head().all("via")));
        return headers.build();
    }

    /**
     * The upstream's interim answers ({@code 103 Early Hints}, ...) on their way to the client, their
     * hop-by-hop fields left out; never stored. A client gone meanwhile is not the upstream's failure:
     * its final answer fails on its own.
     */
    static io.loomgate.http.Interim interim(io.loomgate.http.Interim client) {
        return (status, fields) -> {
            Set<String> named = HopByHop.named(fields.all("connection"));
            try {
                client.send(status, fields.without(n -> HopByHop.isHopByHop(n)
                        || named.contains(n.toLowerCase(Locale.ROOT)) || n.equalsIgnoreCase("content-length")));
            } catch (java.io.IOException e) {
                // the client went away: what is left of the exchange notices
            }
        };
    }

    static Response.Stream of(UpstreamResponse response) {
        return of(response, Headers.EMPTY, 0, Keeper.NONE);
    }

    /** What is done with an answer as it streams past (a cache stores it). */
    interface Keeper {
        /** Keeps nothing. */
        Keeper NONE = new Keeper() {
            @Override
            public void whole(byte[] body) {
            }

            @Override
            public void ended(boolean complete) {
            }
        };

        /** The whole body, when it came whole within the bytes kept. */
        void whole(byte[] body);

        /** The body passed the bytes kept: it will not be given whole (it streams on). */
        default void tooLong() {
        }

        /** The answer ended, after {@link #whole} if that was called: {@code complete} unless it broke or was never sent. */
        void ended(boolean complete);
    }

    /**
     * The answer with {@code more} headers; while it streams, its first {@code keep} bytes are kept,
     * and when the whole body came and was no longer than that, {@code keeper} is given it (a cache
     * stores it). 0 keeps nothing.
     */
    static Response.Stream of(UpstreamResponse response, Headers more, long keep, Keeper keeper) {
        Headers.Builder headers = Headers.builder().addAll(endToEnd(response)).addAll(more);
        UpstreamBody body = response.body();
        long length = response.framing().length();
        return new Response.Stream(headers.build(), length, new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                boolean complete = false;
                try (body) {
                    if (!body.hasBufferedBytes()) {
                        out.flush();  // the head goes now, not with the first bytes of a body still to come
                    }
                    ByteArrayOutputStream kept = keep > 0 && length <= keep ? new ByteArrayOutputStream() : null;
                    copy(body, out, length, kept, keep, keeper);
                    complete = true;
                    if (kept != null && kept.size() <= keep) {
                        keeper.whole(kept.toByteArray());
                    }
                } finally {
                    response.sender().await();   // the client's connection is the server's again
                    keeper.ended(complete);
                }
            }

            @Override
            public Headers trailers() {
                return body.trailers();
            }

            @Override
            public void discard() {
                boolean empty = length == 0;   // the server writes no body: it came whole
                body.close();
                response.sender().await();
                if (empty && keep > 0) {
                    keeper.whole(new byte[0]);
                }
                keeper.ended(empty);
            }
        });
    }

    /**
     * Copies {@code in} to {@code out}; also into {@code kept} while it holds no more than
     * {@code keep} bytes, telling {@code keeper} when it passes them.
     */
    private static void copy(UpstreamBody in, OutputStream out, long length, ByteArrayOutputStream kept, long keep, Keeper keeper)
            throws IOException {
        byte[] buf = new byte[length > 0 && length < 16 * 1024 ? (int) length : 16 * 1024];
        while (true) {
            int n;
            try {
                n = in.read(buf);
            } catch (IOException e) {
                throw new BodyAborted(e instanceof MalformedResponse ? e.getMessage() : String.valueOf(e.getMessage()),
                        in.delivered(), e);
            }
            if (n < 0) {
                return;
            }
            out.write(buf, 0, n);
            out.flush();
            if (kept != null && kept.size() <= keep) {
                kept.write(buf, 0, (int) Math.min(n, keep + 1 - kept.size()));   // one byte past the limit marks it too long
                if (kept.size() > keep) {
                    keeper.tooLong();
                }
            }
        }
    }
}
