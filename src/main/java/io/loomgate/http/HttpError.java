package io.loomgate.http;

import io.loomgate.config.Printable;
import io.loomgate.json.JsonWriter;
import java.util.Map;

/**
 * The one exception type that carries an HTTP answer: a status, a stable snake_case error code and
 * a message safe to show a client. Anything else thrown while serving a request is a bug and becomes
 * a 500 in {@link ErrorMapper}.
 *
 * <pre>{@code
 * throw HttpError.badParameter("timeout", raw, "a duration such as 300ms, 1.5s, 2m or 1h");
 * }</pre>
 */
public final class HttpError extends RuntimeException {

    private static final int ECHO_LIMIT = 64;

    private final int status;
    private final String code;
    private final Map<String, String> details;
    private final Map<String, String> headers;

    public HttpError(int status, String code, String message) {
        this(status, code, message, Map.of(), Map.of());
    }

    public HttpError(int status, String code, String message, Map<String, String> details, Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = Map.copyOf(details);
        this.headers = Map.copyOf(headers);
    }

    /** A 400 naming the query parameter, its (truncated) value and what is accepted. */
    public static HttpError badParameter(String parameter, String value, String accepted) {
        String shown = echo(value);
        return new HttpError(400, "bad_parameter",
                parameter + " must be " + accepted + ", got '" + shown + "'",
                Map.of("parameter", echo(parameter), "value", shown), Map.of());
    }

    public static HttpError badRequest(String code, String message) {
        return new HttpError(400, code, message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Extra headers the answer needs, such as {@code Allow} or {@code Retry-After}. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The JSON body: {@code {"status":404,"error":"not_found","message":"..."}} plus any details. */
    public Response toResponse() {
        JsonWriter w = new JsonWriter(128).beginObject()
                .field("status", status).field("error", code).field("message", getMessage());
        details.forEach(w::field);
        Response r = Response.json(status, w.endObject());
        for (var h : headers.entrySet()) {
            r = r.withHeader(h.getKey(), h.getValue());
        }
        return r;
    }

    /** Client input shortened to 64 characters and made printable; JSON escaping happens when written. */
    public static String echo(String raw) {
        return Printable.shorten(raw, ECHO_LIMIT);
    }
}
