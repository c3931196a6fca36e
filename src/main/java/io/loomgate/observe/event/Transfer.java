package io.loomgate.observe.event;

/**
 * What a proxied exchange moved, and when: the request body's bytes sent upstream, the answer's
 * bytes sent to the client, when the answer's head came from the upstream (its first byte) and
 * when its body ended (its last byte), as {@link System#nanoTime()} values, and the endpoint of its
 * last try.
 */
public record Transfer(long bytesIn, long bytesOut, long firstByteNanos, long lastByteNanos, String endpoint) {
}
