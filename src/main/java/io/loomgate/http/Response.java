package io.loomgate.http;

import io.loomgate.json.JsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A response: status, content type, body and extra headers. Usually complete before anything is
 * written; a proxied answer instead carries a {@link Stream} that the server writes as it comes.
 * Handlers return one; the server writes it (and leaves the body out for {@code HEAD}).
 *
 * @param headers loomgate's own headers: each replaces a streamed header of the same name
 * @param stream  null for a complete response; else what writes the body, with its own headers
 */
public record Response(int status, String contentType, byte[] body, Headers headers, Stream stream) {

    /**
     * A body written as it arrives, never held whole.
     *
     * @param headers every header to send, with all their values (the content type among them)
     * @param length  the body's length, or -1 when unknown (it is then sent chunked)
     * @param writer  copies the body to the client, and releases its source whatever happens
     */
    public record Stream(Headers headers, long length, Writer writer) {
        public Stream {
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(writer, "writer");
        }
    }

    /** Copies a body to the client; closes its own source, also when it fails or is not called. */
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;

        /** Releases the source without writing (a {@code HEAD}, or a client already gone). */
        void discard();

        /**
         * The trailer fields that end the body, once {@link #writeTo} has returned (a proxied HTTP/2
         * answer's, gRPC's {@code grpc-status}); none by default. They reach a client whose exchange
         * takes {@link Trailers} (HTTP/2), and no other.
         */
        default Headers trailers() {
            return Headers.EMPTY;
        }
    }

    public static final String JSON = "application/json";
    public static final String TEXT = "text/plain; charset=utf-8";

    public Response {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(headers, "headers");
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be in 100..599: " + status);
        }
    }

    public Response(int status, String contentType, byte[] body, Headers headers) {
        this(status, contentType, body, headers, null);
    }

    /** A streamed response; {@code stream}'s headers are sent as they are. */
    public static Response streamed(int status, Stream stream) {
        return new Response(status, "", new byte[0], Headers.EMPTY, Objects.requireNonNull(stream, "stream"));
    }

    public static Response json(int status, JsonWriter json) {
        return new Response(status, JSON, json.toBytes(), Headers.EMPTY);
    }

    public static Response text(int status, String contentType, String text) {
        return new Response(status, contentType, text.getBytes(StandardCharsets.UTF_8), Headers.EMPTY);
    }

    /**
     * This response, with {@code ended} told once how its streamed body went: {@code null} when it
     * was written whole or not needed (a {@code HEAD}), else the failure. A complete response is
     * returned as it is, after telling {@code ended} at once.
     */
    public Response onEnd(java.util.function.Consumer<IOException> ended) {
        if (stream == null) {
            ended.accept(null);
            return this;
        }
        Writer inner = stream.writer();
        Writer told = new Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                try {
                    inner.writeTo(out);
                } catch (IOException e) {
                    ended.accept(e);
                    throw e;
                } catch (RuntimeException e) {
                    ended.accept(new IOException(e));
                    throw e;
                }
                ended.accept(null);
            }

            @Override
            public void discard() {
                inner.discard();
                ended.accept(null);
            }

            @Override
            public Headers trailers() {
                return inner.trailers();
            }
        };
        return new Response(status, contentType, body, headers, new Stream(stream.headers(), stream.length(), told));
    }

    /**
     * A copy without the streamed headers (an upstream's own, which may come in any case) whose
     * lower-case name {@code dropped} accepts; loomgate's own headers stay.
     */
    public Response withoutStreamed(Predicate<String> dropped) {
        if (stream == null) {
            return this;
        }
        return new Response(status, contentType, body, headers,
                new Stream(stream.headers().without(dropped), stream.length(), stream.writer()));
    }

    /** Every value of header {@code name} (any case): a stream's first, then loomgate's own. */
    public List<String> values(String name) {
        if (stream == null) {
            return headers.all(name);
        }
        List<String> values = new ArrayList<>(stream.headers().all(name));
        values.addAll(headers.all(name));
        return values;
    }

    /**
     * This response, with {@code ended} told once how its streamed body went (as {@link #onEnd}) and
     * how many bytes of it were written.
     */
    public Response counted(java.util.function.ObjLongConsumer<IOException> ended) {
        if (stream == null) {
            ended.accept(null, body == null ? 0 : body.length);
            return this;
        }
        long[] written = {0};
        Writer inner = stream.writer();
        Writer counting = new Writer() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                inner.writeTo(new java.io.FilterOutputStream(out) {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        written[0]++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        written[0] += len;
                    }
                });
            }

            @Override
            public void discard() {
                inner.discard();
            }

            @Override
            public Headers trailers() {
                return inner.trailers();
            }
        };
        return new Response(status, contentType, body, headers, new Stream(stream.headers(), stream.length(), counting))
                .onEnd(e -> ended.accept(e, written[0]));
    }

    /** A copy whose streamed headers (an upstream's own) are {@code change}d: what a proxy route rewrites. */
    public Response withStreamedHeaders(java.util.function.UnaryOperator<Headers> change) {
        if (stream == null) {
            return this;
        }
        return new Response(status, contentType, body, headers, new Stream(change.apply(stream.headers()), stream.length(), stream.writer()));
    }

    /** A copy with one more header (replacing one of the same name). */
    public Response withHeader(String name, String value) {
        return new Response(status, contentType, body, headers.with(name, value), stream);
    }
}
