package io.loomgate.service;

import io.loomgate.json.JsonWriter;

/** What a service call returns, ready to be written into a response. */
public sealed interface ServiceValue {

    /** Writes this value as one JSON value. */
    void writeTo(JsonWriter json);

    /** A plain string, such as {@code "DB call completed"}. */
    record Text(String text) implements ServiceValue {
        @Override
        public void writeTo(JsonWriter json) {
            json.value(text);
        }
    }

    /** What reading the test file found: {@code {"lines":10000,"bytes":588890,"crc32":"1c291ca3"}}. */
    record FileDigest(long lines, long bytes, String crc32) implements ServiceValue {
        @Override
        public void writeTo(JsonWriter json) {
            json.beginObject().field("lines", lines).field("bytes", bytes).field("crc32", crc32).endObject();
        }
    }

    /** The primes up to {@code n}: {@code {"n":50000,"primes":5133,"sum":121013308}}. */
    record PrimeSum(int n, int primes, long sum) implements ServiceValue {
        @Override
        public void writeTo(JsonWriter json) {
            json.beginObject().field("n", n).field("primes", primes).field("sum", sum).endObject();
        }
    }
}
