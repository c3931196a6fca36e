package io.loomgate.demo;

import io.loomgate.core.call.Value;
import io.loomgate.json.JsonWriter;

/** The primes up to {@code n}: {@code {"n":50000,"primes":5133,"sum":121013308}}. */
record PrimeSum(int n, int primes, long sum) implements Value {
    @Override
    public void writeTo(JsonWriter json) {
        json.beginObject().field("n", n).field("primes", primes).field("sum", sum).endObject();
    }
}
