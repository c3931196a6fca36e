package io.loomgate.upstream.http;

import io.loomgate.core.call.UpstreamFailure;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonParser;
import io.loomgate.json.JsonWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns an upstream's response body into a part's value: JSON is embedded as JSON, text as a JSON
 * string, and anything else is refused with a reason.
 */
final class ResponseBodies {

    private ResponseBodies() {
    }

    /** The value of a 2xx body with the given {@code Content-Type}. */
    static HttpValue value(UpstreamId id, Optional<String> contentType, byte[] body, int status) throws UpstreamFailure {
        String type = contentType.map(t -> t.toLowerCase(Locale.ROOT)).orElse("");
        String mediaType = type.split(";", 2)[0].trim();
        if (body.length == 0) {
            return new HttpValue(status, "null", null);
        }
        if (mediaType.equals("application/json") || mediaType.endsWith("+json")) {
            String text = utf8(id, body, status, "JSON");
            Object tree;
            try {
                tree = JsonParser.parse(text);
            } catch (IllegalArgumentException e) {
                throw new UpstreamFailure(id, "answered invalid JSON (" + e.getMessage() + ")", OptionalInt.of(status));
            }
            return new HttpValue(status, text.strip(), tree);
        }
        if (mediaType.isEmpty() || mediaType.startsWith("text/") || type.contains("charset=")
                || mediaType.equals("application/xml") || mediaType.equals("application/x-www-form-urlencoded")) {
            StringBuilder quoted = new StringBuilder(body.length + 2);
            String text = utf8(id, body, status, "text");
            JsonWriter.quote(quoted, text);
            return new HttpValue(status, quoted.toString(), text);
        }
        throw new UpstreamFailure(id, "answered binary content (" + mediaType
                + "); only JSON and text can be embedded in an answer", OptionalInt.of(status));
    }

    /** True for a JSON media type ({@code application/json}, {@code *+json}). */
    static boolean isJson(Optional<String> contentType) {
        String mediaType = contentType.map(t -> t.toLowerCase(Locale.ROOT).split(";", 2)[0].trim()).orElse("");
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }

    /** {@code body} as JSON text, if it is valid UTF-8 JSON. */
    static Optional<String> json(byte[] body) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
            JsonParser.parse(text);
            return Optional.of(text.strip());
        } catch (CharacterCodingException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String utf8(UpstreamId id, byte[] body, int status, String what) throws UpstreamFailure {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new UpstreamFailure(id, "answered " + what + " that is not valid UTF-8", OptionalInt.of(status));
        }
    }

    /** At most {@code limit} bytes; one more is a failure, and the rest is never read. */
    static byte[] read(UpstreamId id, java.io.InputStream in, int limit, int status) throws java.io.IOException, UpstreamFailure {
        byte[] buf = new byte[Math.min(limit + 1, 8192)];
        int n = 0;
        for (int r; (r = in.read(buf, n, buf.length - n)) >= 0; ) {
            n += r;
            if (n > limit) {
                throw new UpstreamFailure(id, "response body over the " + limit + "-byte limit", java.util.OptionalInt.of(status));
            }
            if (n == buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.min(buf.length * 2, limit + 1));
            }
        }
        return java.util.Arrays.copyOf(buf, n);
    }
}
