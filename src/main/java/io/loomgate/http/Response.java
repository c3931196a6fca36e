package io.loomgate.http;

import io.loomgate.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A complete response, built before anything is written: status, content type, body and extra headers.
 * Handlers return one; the server writes it (and leaves the body out for {@code HEAD}).
 */
public record Response(int status, String contentType, byte[] body, Map<String, String> headers) {

    public static final String JSON = "application/json";
    public static final String TEXT = "text/plain; charset=utf-8";

    public Response {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be in 100..599: " + status);
        }
    }

    public static Response json(int status, JsonWriter json) {
        return new Response(status, JSON, json.toBytes(), Map.of());
    }

    public static Response text(int status, String contentType, String text) {
        return new Response(status, contentType, text.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** A copy with one more header (replacing one of the same name). */
    public Response withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new Response(status, contentType, body, copy);
    }

}
