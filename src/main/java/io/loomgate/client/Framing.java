package io.loomgate.client;

import io.loomgate.http1.BodyLengths;
import io.loomgate.http1.FieldLines;
import io.loomgate.http1.Http1Exception;

import java.util.List;

/**
 * How an answer's body is delimited (RFC 9112 section 6.3) and whether its connection may carry
 * another exchange afterwards. Worked out strictly: anything ambiguous is a {@link MalformedResponse}
 * rather than a guess, because a wrong guess hands the rest of this answer to the next request.
 *
 * @param kind       empty, a fixed length, chunked, or until the connection closes
 * @param length     the length to tell the client: the body's for {@code LENGTH}, 0 for {@code EMPTY}
 *                   (for a HEAD, the length a GET would have, when the upstream said), else -1
 * @param persistent whether the upstream lets the connection stay open after this answer
 */
public record Framing(Kind kind, long length, boolean persistent) {

    public enum Kind { EMPTY, LENGTH, CHUNKED, UNTIL_CLOSE }

    public static Framing of(String method, ResponseHead head) throws MalformedResponse {
        boolean persistent = head.http11() && !head.tokens("connection").contains("close");
        List<String> te = head.all("transfer-encoding");
        boolean hasLength = !head.all("content-length").isEmpty();
        int status = head.status();
        if (method.equals("HEAD") || status == 204 || status == 304) {
            long announced = method.equals("HEAD") && hasLength && te.isEmpty() ? contentLength(head) : -1;
            return new Framing(Kind.EMPTY, status == 204 || status == 304 ? 0 : announced, persistent);
        }
        if (!te.isEmpty()) {
            if (!head.http11()) {
                throw new MalformedResponse("Transfer-Encoding in an HTTP/1.0 answer");
            }
            if (hasLength) {
                throw new MalformedResponse("both Content-Length and Transfer-Encoding");
            }
            if (!head.tokens("transfer-encoding").equals(List.of("chunked"))) {
                throw new MalformedResponse("Transfer-Encoding '" + FieldLines.shown(String.join(", ", te))
                        + "' (only chunked is read)");
            }
            return new Framing(Kind.CHUNKED, -1, persistent);
        }
        if (hasLength) {
            return new Framing(Kind.LENGTH, contentLength(head), persistent);
        }
        return new Framing(Kind.UNTIL_CLOSE, -1, false);
    }

    /** Every Content-Length value must be the same run of digits ({@code 5} and {@code 5, 5}, never {@code +5} or {@code 5, 6}). */
    private static long contentLength(ResponseHead head) throws MalformedResponse {
        try {
            return BodyLengths.contentLength(head.all("content-length"));
        } catch (Http1Exception e) {
            throw new MalformedResponse(e.getMessage());
        }
    }
}
