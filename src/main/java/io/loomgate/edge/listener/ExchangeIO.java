package io.loomgate.edge.listener;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.loomgate.http.FieldText;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.List;

/** Writing {@link Response}s on a JDK {@link HttpExchange}. */
final class ExchangeIO {

    private static final System.Logger LOG = System.getLogger("loomgate");

    /** Writes {@code response}; for {@code HEAD} only the headers, with the length a GET would have. */
    static void write(HttpExchange exchange, Response response, boolean head) throws IOException {
        String requestId = response.headers().first("X-Request-Id");
        if (response.stream() != null) {
            writeStream(exchange, response, requestId, head);
            return;
        }
        Headers h = exchange.getResponseHeaders();
        h.set("Content-Type", response.contentType());
        own(h, response, requestId);
        byte[] body = response.body();
        if (head) {
            h.set("Content-Length", String.valueOf(body.length));
            exchange.sendResponseHeaders(response.status(), -1);
        } else if (body.length == 0) {
            exchange.sendResponseHeaders(response.status(), -1);
        } else {
            exchange.sendResponseHeaders(response.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /**
     * Sends the stream's headers, then copies its body as it comes; the source is released either
     * way. If the copy fails, the response is cut off (see {@link CutOffOutput}) and the failure
     * thrown: a {@link io.loomgate.http.BodyAborted} when the source failed, another
     * {@link IOException} when the client went away.
     */
    private static void writeStream(HttpExchange exchange, Response response, String requestId, boolean head)
            throws IOException {
        Response.Stream stream = response.stream();
        boolean sent = false;
        try {
            Headers h = exchange.getResponseHeaders();
            stream.headers().forEach((name, value) -> {
                if (sendable(name, List.of(value), requestId)) {
                    h.add(name, value);
                }
            });
                own(h, response, requestId);
            long length = stream.length();
            if (head || length == 0) {
                if (head && length >= 0) {
                    h.set("Content-Length", String.valueOf(length));
                }
                exchange.sendResponseHeaders(response.status(), -1);
                return;
            }
            exchange.sendResponseHeaders(response.status(), length > 0 ? length : 0);
            sent = true;
            CutOffOutput out = new CutOffOutput(exchange.getResponseBody());
            exchange.setStreams(null, out);
            try {
                stream.writer().writeTo(out);
            } catch (IOException | RuntimeException e) {
                out.cutOff();
                throw e;
            }
            out.close();
        } finally {
            if (!sent) {
                stream.writer().discard();
            }
        }
    }

    /**
     * Sets a header unless its name is not a token or a value holds a control character (CR, LF,
     * NUL, ...) or a character beyond one byte: the last guard that no text, whoever wrote it, becomes
     * a second header line or a folded one. Such a header is left out and logged; the JDK would
     * otherwise refuse the whole response and the client would get no answer at all.
     */
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

    /** loomgate's own headers of the response, each name replacing a streamed header of that name. */
    private static void own(Headers h, Response response, String requestId) {
        for (String name : response.headers().names()) {
            List<String> values = response.headers().all(name);
            if (sendable(name, values, requestId)) {
                h.put(name, values);
            }
        }
    }
}
