package io.loomgate.upstream;

import io.loomgate.grpc.GrpcContent;
import io.loomgate.http.HttpError;
import io.loomgate.http.Request;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Map;

/**
 * A proxied request's body read before any upstream is chosen, when it is small (nginx buffers
 * every body before it connects; this keeps the first {@link #BYTES}): a slow upload then holds no
 * upstream connection while it trickles in, the upstream gets the head and the body together, and
 * the request's deadline counts from the body's end. A chunked body that ends within the buffer is
 * sent on with its {@code Content-Length}. A larger body streams, its first bytes from the buffer.
 * A gRPC request's body of unknown length is never waited for: it is a stream of messages, the
 * answers to which may come while it is still open (a bidirectional call), so it streams from its
 * first byte.
 *
 * <p>The client's pace is bounded by the server, between any two bytes (loomgate's server: its
 * {@code --idle-timeout}; the JDK's: {@code --read-timeout} for head and body together).
 */
public final class BufferedBody {

    /** The most kept in memory per request: nginx's {@code client_body_buffer_size} is 16 KB, on disk beyond. */
    public static final int BYTES = 64 * 1024;

    private BufferedBody() {
    }

    /**
     * {@code request} with its body read whole when it is small, else as it was, with the first bytes
     * read. Nothing is read of a body declared longer than {@code max}: that is a 413 at once.
     *
     * @throws HttpError 413 over {@code max}; 400 when the body ends early or is not validly framed
     */
    public static Request read(Request request, long max) {
        String length = request.headers().first("Content-Length");
        boolean chunked = length == null && request.headers().contains("Transfer-Encoding");
        long declared = length == null ? 0 : Long.parseLong(length.strip());
        if (declared > max) {
            throw tooLarge(max);
        }
        try {
            if (declared > 0 && declared <= BYTES) {
                byte[] body = request.body().readNBytes((int) declared);
                if (body.length < declared) {
                    throw badBody();
                }
                return request.withBody(new ByteArrayInputStream(body));
            }
            if (!chunked || GrpcContent.is(request.headers().first("Content-Type"))) {
                return request;
            }
            byte[] first = request.body().readNBytes((int) Math.min(BYTES, max) + 1);
            if (first.length > max) {
                throw tooLarge(max);
            }
            if (first.length <= BYTES) {   // it ended within the buffer: sent with its length
                return request.withBody(new ByteArrayInputStream(first), request.headers()
                        .without(name -> name.equalsIgnoreCase("Transfer-Encoding")).with("Content-Length", String.valueOf(first.length)));
            }
            InputStream rest = new SequenceInputStream(new ByteArrayInputStream(first), request.body());
            return request.withBody(rest);
        } catch (IOException e) {
            throw badBody();
        }
    }

    /** 413, and the connection closed: the rest of the body is never read. */
    public static HttpError tooLarge(long max) {
        return new HttpError(413, "body_too_large", "the request body is larger than this route takes (" + max + " bytes)",
                Map.of(), Map.of("Connection", "close"));
    }

    /** 400, and the connection closed: the client's body was cut short or broke its framing. */
    public static HttpError badBody() {
        return new HttpError(400, "bad_body", "the request body ended early or was not validly framed",
                Map.of(), Map.of("Connection", "close"));
    }
}
