package io.loomgate.http;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * How a {@link Response} goes onto a connection, the same on either server: the fields it carries, its
 * framing, and its body. The fields are a stream's (a proxied answer's), then loomgate's own, each of
 * which replaces a stream's field of its name; a field whose name is not a token, or whose value holds
 * a control character or a character beyond one byte, is left out and logged, so no text, whoever wrote
 * it, becomes a second header line. The framing is the server API's ({@code sendResponseHeaders}): a length
 * above 0, 0 for chunked, -1 for none. A streamed body is copied as it comes; if its source fails, the
 * answer is cut off, never finished as if it were whole.
 */
public final class AnswerWriter {

    /** What a server gives the writer: its answer's head, then its body. */
    public interface Wire {

        /** Sends the head; {@code length} above 0 is the body's length, 0 is chunked, -1 is no body. */
        void head(int status, long length, Headers fields) throws IOException;

        /** The body, after the head; closing it finishes the answer. */
        OutputStream output() throws IOException;

        /** The body will not be finished: the connection must end without the rest of it. */
        void cutOff() throws IOException;
    }

    private static final System.Logger LOG = System.getLogger("loomgate");

    private AnswerWriter() {
    }

    /**
     * Writes {@code response} on {@code wire}; for {@code HEAD} only its head, with the length a
     * {@code GET} would have when it is known.
     *
     * @throws BodyAborted  when a streamed body's source failed after the head was sent (cut off)
     * @throws IOException  when the client went away
     */
    public static void write(Response response, boolean head, Wire wire) throws IOException {
        Headers fields = fields(response);
        Response.Stream stream = response.stream();
        int status = response.status();
        if (stream == null) {
            byte[] body = response.body();
            if (head || body.length == 0) {
                wire.head(status, -1, head ? fields.with("Content-Length", String.valueOf(body.length)) : fields);
                return;
            }
            wire.head(status, body.length, fields);
            try (OutputStream out = wire.output()) {
                out.write(body);
            }
            return;
        }
        boolean sent = false;
        try {
            long length = stream.length();
            if (head || length == 0) {
                wire.head(status, -1, head && length >= 0 ? fields.with("Content-Length", String.valueOf(length)) : fields);
                return;
            }
            wire.head(status, length > 0 ? length : 0, fields);
            sent = true;
            OutputStream out = wire.output();
            try {
                stream.writer().writeTo(out);
            } catch (IOException | RuntimeException e) {
                wire.cutOff();
                throw e;
            }
            Headers trailers = stream.writer().trailers();
            if (!trailers.isEmpty() && length < 0 && wire instanceof Trailers t) {
                out.flush();
                t.trailers(trailers);   // they end the answer
                return;
            }
            out.close();
        } finally {
            if (!sent) {
                stream.writer().discard();
            }
        }
    }

    /** The fields {@code response} goes out with, framing aside. */
    static Headers fields(Response response) {
        Headers own = response.headers();
        String requestId = own.first("X-Request-Id");
        Headers.Builder b = Headers.builder();
        if (response.stream() == null) {
            if (response.contentType() != null && !own.contains("Content-Type")) {
                b.add("Content-Type", response.contentType());
            }
        } else {
            Headers passed = response.stream().headers();
            if (passed.wellFormed()) {   // each field checked when it was added: nothing to leave out
                b.addAll(passed, name -> !own.contains(name));
            } else {
                passed.forEach((name, value) -> {
                    if (!own.contains(name) && sendable(name, List.of(value), requestId)) {
                        b.add(name, value);
                    }
                });
            }
        }
        if (own.wellFormed()) {
            return b.addAll(own.grouped()).build();
        }
        for (String name : own.names()) {
            List<String> values = own.all(name);
            if (sendable(name, values, requestId)) {
                values.forEach(value -> b.add(name, value));
            }
        }
        return b.build();
    }

    private static boolean sendable(String name, List<String> values, String requestId) {
        boolean sendable = FieldText.isToken(name);
        for (String v : values) {
            sendable &= FieldText.isValue(v);
        }
        if (!sendable) {
            LOG.log(Level.WARNING, "request " + requestId + ": response header " + FieldText.printable(name)
                    + " left out: its name or value is not sendable");
        }
        return sendable;
    }
}
