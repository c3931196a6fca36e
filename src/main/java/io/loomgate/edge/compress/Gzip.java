package io.loomgate.edge.compress;

import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/**
 * An answer gzipped: a whole body at once, a streamed one as it streams (its length then unknown,
 * so it goes chunked, each flush of the source flushed through). {@code Content-Encoding: gzip} is
 * added and a strong {@code ETag} made weak, as nginx does: the bytes are no longer the upstream's.
 */
final class Gzip {

    private Gzip() {
    }

    static Response of(Response r) {
        if (r.stream() == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, r.body().length / 4));
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(r.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);   // a ByteArrayOutputStream does not fail
            }
            return new Response(r.status(), r.contentType(), out.toByteArray(), marked(r.headers()));
        }
        Response.Writer inner = r.stream().writer();
        Response.Writer gzipping = new Response.Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                GZIPOutputStream gz = new GZIPOutputStream(new FilterOutputStream(out) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();   // the server closes the exchange's stream itself
                    }
                }, 8192, true);
                inner.writeTo(gz);
                gz.finish();
                gz.flush();
            }

            @Override
            public void discard() {
                inner.discard();
            }

            @Override
            public io.loomgate.http.Headers trailers() {
                return inner.trailers();
            }
        };
        return new Response(r.status(), r.contentType(), r.body(), r.headers(), new Response.Stream(marked(r.stream().headers())
                .without(n -> n.equalsIgnoreCase("Content-Length")), -1, gzipping));
    }

    private static Headers marked(Headers h) {
        Headers out = h.with("Content-Encoding", "gzip");
        String etag = h.first("ETag");
        if (etag != null && !etag.strip().startsWith("W/")) {
            out = out.with("ETag", "W/" + etag.strip());
        }
        return out;
    }
}
