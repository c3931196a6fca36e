package io.loomgate.demo;

import io.loomgate.core.call.Value;
import io.loomgate.json.JsonWriter;

/** What reading the sample file found: {@code {"lines":10000,"bytes":560000,"crc32":"a6e9ae3c"}}. */
record FileDigest(long lines, long bytes, String crc32) implements Value {
    @Override
    public void writeTo(JsonWriter json) {
        json.beginObject().field("lines", lines).field("bytes", bytes).field("crc32", crc32).endObject();
    }
}
