package io.loomgate.observe.timeline;

/**
 * A proxied request's exchange on its timeline: the bytes each way, and its first and last byte
 * in milliseconds from the request's arrival; the endpoint of its last try.
 */
public record TransferSpan(long bytesIn, long bytesOut, double firstByteMs, double lastByteMs, String endpoint) {
}
