package io.loomgate.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import io.loomgate.http.FieldNames;
import io.loomgate.http.FieldText;
import io.loomgate.http.Headers;
import io.loomgate.http1.ChunkedOutput;
import java.util.Objects;
import java.util.Set;

/**
 * A request to send upstream, and its bytes on the wire: the head, then the body as it is read,
 * either with its length or chunked.
 *
 * @param method  the method, as sent
 * @param origin  where it goes
 * @param target  the raw path and query, sent as they are ({@code /api/data?x=1})
 * @param headers name and value pairs, in order, without {@code Host}, {@code Connection},
 *                {@code Content-Length} or {@code Transfer-Encoding} (the client writes those)
 * @param body    the body to stream, or null for none
 * @param length  the body's length, or -1 to send it chunked
 * @param host    the {@code Host} to send, when not the upstream's own authority
 * @param interim where the upstream's interim answers ({@code 102}, {@code 103}) go; {@link io.loomgate.http.Interim#NONE} drops them
 */
public record OutgoingRequest(String method, Origin origin, String target, Headers headers, InputStream body,
                       long length, java.util.Optional<String> host, io.loomgate.http.Interim interim) {

    /** RFC 9110 section 9.2.2: sending one of these twice has the effect of sending it once. */
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    /** Methods whose request body has no defined meaning: an upstream may ignore it and read it as the next request. */
    private static final Set<String> BODY_UNDEFINED = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "DELETE");

    public OutgoingRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(interim, "interim");
        if (host.isPresent() && !FieldText.isValue(host.get())) {
            throw new IllegalArgumentException("not a Host that may be sent: " + FieldText.printable(host.get()));
        }
        boolean wellFormed = headers.wellFormed();   // each field checked when it was added
        headers.forEach((name, value) -> {
            if (FRAMING.contains(name) || !wellFormed && !FieldText.isField(name, value)) {
                throw new IllegalArgumentException("not a header that may be sent: " + FieldText.printable(name));
            }
        });
    }

    /** The upstream's own {@code Host}: its authority; interim answers dropped. */
    public OutgoingRequest(String method, Origin origin, String target, Headers headers, InputStream body, long length) {
        this(method, origin, target, headers, body, length, java.util.Optional.empty());
    }

    /** Interim answers dropped. */
    public OutgoingRequest(String method, Origin origin, String target, Headers headers, InputStream body, long length,
                           java.util.Optional<String> host) {
        this(method, origin, target, headers, body, length, host, io.loomgate.http.Interim.NONE);
    }

    /** Headers the codec writes itself: one given by anyone else would let it choose how the upstream frames the stream. */
    private static final FieldNames FRAMING = FieldNames.of("host", "connection", "content-length", "transfer-encoding");

    /** A {@code GET} without a body. */
    public static OutgoingRequest get(Origin origin, String target, Headers headers) {
        return new OutgoingRequest("GET", origin, target, headers, null, 0);
    }

    /** Safe to send again on a fresh connection: idempotent, and no body that was already consumed. */
    boolean replayable() {
        return body == null && IDEMPOTENT.contains(method);
    }

    /**
     * Whether this asks the upstream to switch protocols, as a WebSocket handshake does: a {@code GET}
     * without a body that carries {@code Upgrade}. The head then says {@code Connection: Upgrade}.
     */
    public boolean upgrade() {
        return body == null && method.equals("GET") && headers.contains("Upgrade");
    }

    /**
     * True when the connection must not carry another exchange after this one: a body on a method
     * whose body means nothing ({@code GET} with a body) may be ignored by the upstream and then
     * read as a second request, whose answer would go to the next client.
     */
    boolean closesConnection() {
        return body != null && BODY_UNDEFINED.contains(method);
    }

    /** Methods that carry a {@code Content-Length: 0} when they have no body. */
    static boolean needsLength(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    /** True when the body goes chunked: its length is not known. */
    boolean chunked() {
        return body != null && length < 0;
    }

    /** The request line and headers, ending with the empty line; {@code close} asks the upstream to close afterwards. */
    public byte[] head(boolean close) {
        StringBuilder head = new StringBuilder(512).append(method).append(' ').append(target)
                .append(" HTTP/1.1\r\nHost: ").append(host.orElse(origin.authority())).append("\r\n");   // the client's, with preserveHost
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (upgrade()) {
            head.append("Connection: Upgrade\r\n");
        } else if (close) {
            head.append("Connection: close\r\n");
        }
        if (chunked()) {
            head.append("Transfer-Encoding: chunked\r\n");
        } else if (body != null || needsLength(method)) {
            head.append("Content-Length: ").append(body == null ? 0 : length).append("\r\n");
        }
        return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Writes the head, then streams the body, if there is one, as it reads it.
     *
     * @throws EOFException when a body of known length ends early
     */
    public void writeTo(OutputStream out, boolean close) throws IOException {
        out.write(head(close));
        if (body == null) {
            return;
        }
        boolean chunked = chunked();
        OutputStream to = chunked ? new ChunkedOutput(out) : out;
        byte[] chunk = new byte[8192];
        long left = length;
        while (chunked || left > 0) {
            int n = body.read(chunk, 0, chunked ? chunk.length : (int) Math.min(chunk.length, left));
            if (n < 0) {
                break;
            }
            to.write(chunk, 0, n);
            left -= n;
        }
        if (chunked) {
            ((ChunkedOutput) to).finish();
        } else if (left > 0) {
            throw new EOFException("the request body ended " + left + " bytes early");
        }
    }
}
