package io.loomgate.upstream.http;

import io.loomgate.core.call.Value;
import io.loomgate.json.JsonWriter;

/**
 * What an HTTP upstream answered: its status, and its body as one JSON value (a JSON body as it
 * came, after it parsed; a text body as a JSON string), with the tree it parsed to, so a composed
 * route reads it without parsing it again.
 */
public record HttpValue(int status, String json, Object tree) implements Value.WithStatus {

    @Override
    public void writeTo(JsonWriter w) {
        w.raw(json);
    }

    @Override
    public long size() {
        return json.length();
    }
}
