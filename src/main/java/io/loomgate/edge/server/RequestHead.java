package io.loomgate.edge.server;

import io.loomgate.http.Headers;
import io.loomgate.http1.BodyLengths;
import io.loomgate.http1.FieldLines;
import io.loomgate.http1.HeadLimits;
import io.loomgate.http1.Http1Exception;
import io.loomgate.http1.LineInput;
import io.loomgate.http1.StartLines;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * A request's head, read by the codec the HTTP client reads answers with ({@link io.loomgate.http1}),
 * and its framing worked out as RFC 9112 section 6 says, strictly: a request that could be read two
 * ways is refused, and its connection closed, never guessed at.
 *
 * <ul>
 *   <li>{@code Transfer-Encoding} must be exactly {@code chunked} (another coding is 501), never beside
 *       a {@code Content-Length}, never in an HTTP/1.0 request;</li>
 *   <li>one {@code Content-Length} field, of digits only;</li>
 *   <li>an HTTP/1.1 request has exactly one {@code Host};</li>
 *   <li>the target is a path ({@code /...}), an absolute URI, or {@code *} for {@code OPTIONS}.</li>
 * </ul>
 *
 * @param method        the method
 * @param uri           the target as a URI, still encoded
 * @param http11        false for HTTP/1.0
 * @param headers       the fields, as the client spelt them; read once, for the gateway and the API alike
 * @param length        the body's length, -1 for chunked, 0 for none
 * @param keepAlive     whether the client lets the connection carry another request
 * @param expectContinue whether the client waits for {@code 100 Continue} before its body
 */
record RequestHead(String method, URI uri, boolean http11, Headers headers, long length, boolean keepAlive,
                   boolean expectContinue) {

    /**
     * Whether this asks to switch protocols (a WebSocket handshake): an HTTP/1.1 {@code GET} with no body, an
     * {@code Upgrade} header, and {@code upgrade} among its {@code Connection} options. Such a request
     * is not watched for a hang-up: after a {@code 101} its handler reads the connection itself.
     */
    boolean upgrade() {
        return http11 && method.equals("GET") && length == 0 && headers.contains("Upgrade")
                && FieldLines.tokens(headers.all("Connection")).contains("upgrade");
    }

    /** Empty lines skipped before a request line (RFC 9112 section 2.2), at most. */
    private static final int LEADING_EMPTY_LINES = 8;

    /** @return null when the connection ended before a request began */
    static RequestHead read(LineInput in) throws IOException {
        String line = in.readLine(StartLines.MAX_TARGET + 64, 414);
        for (int skipped = 0; line != null && line.isEmpty() && skipped < LEADING_EMPTY_LINES; skipped++) {
            line = in.readLine(StartLines.MAX_TARGET + 64, 414);
        }
        if (line == null) {
            return null;
        }
        StartLines.RequestLine start = StartLines.request(line);
        Headers.Builder fields = Headers.builder();
        FieldLines.read(in, HeadLimits.forRequest(), fields::addIfWellFormed);
        return of(start, fields.build());
    }

    private static RequestHead of(StartLines.RequestLine start, Headers headers) throws Http1Exception {
        List<String> te = headers.all("Transfer-Encoding");
        List<String> cl = headers.all("Content-Length");
        long length = 0;
        if (!te.isEmpty()) {
            if (!start.http11()) {
                throw new Http1Exception("Transfer-Encoding in an HTTP/1.0 request");
            }
            if (!cl.isEmpty()) {
                throw new Http1Exception("both Content-Length and Transfer-Encoding");
            }
            if (!FieldLines.tokens(te).equals(List.of("chunked"))) {
                throw new Http1Exception(501, "Transfer-Encoding '" + FieldLines.shown(String.join(", ", te))
                        + "' (only chunked is read)");
            }
            length = -1;
        } else if (!cl.isEmpty()) {
            if (cl.size() > 1 || cl.getFirst().contains(",")) {
                throw new Http1Exception("more than one Content-Length");
            }
            length = BodyLengths.contentLength(cl);
        }
        List<String> host = headers.all("Host");
        if (start.http11() ? host.size() != 1 : host.size() > 1) {
            throw new Http1Exception(host.isEmpty() ? "an HTTP/1.1 request without Host" : "more than one Host");
        }
        List<String> connection = FieldLines.tokens(headers.all("Connection"));
        boolean keepAlive = start.http11() ? !connection.contains("close") : connection.contains("keep-alive");
        String expect = headers.first("Expect");
        boolean expectContinue = start.http11() && expect != null && expect.equalsIgnoreCase("100-continue");
        return new RequestHead(start.method(), uri(start), start.http11(), headers, length, keepAlive, expectContinue);
    }

    private static URI uri(StartLines.RequestLine start) throws Http1Exception {
        String target = start.target();
        boolean asterisk = target.equals("*");
        if (asterisk ? !start.method().equals("OPTIONS")
                : !target.startsWith("/") && !target.regionMatches(true, 0, "http://", 0, 7)
                        && !target.regionMatches(true, 0, "https://", 0, 8)) {
            throw new Http1Exception("a request target that is not a path or an absolute URI: '" + FieldLines.shown(target) + "'");
        }
        try {
            return new URI(target);
        } catch (URISyntaxException e) {
            throw new Http1Exception("the request target is not a URI: '" + FieldLines.shown(target) + "'");
        }
    }

    /** The path contexts are found by: a URI's path, or {@code /} for {@code *}. */
    String contextPath() {
        String path = uri.getPath();
        return path == null || path.isEmpty() ? "/" : path;
    }
}
