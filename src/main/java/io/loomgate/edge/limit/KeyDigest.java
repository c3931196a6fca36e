package io.loomgate.edge.limit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A limit key held as a fixed 16 bytes, whatever the key's length: the first 128 bits of its
 * SHA-256. A 15 KB header value costs a bucket table the same as a 3-byte one, and finding two keys
 * that share a bucket is as hard as a 128-bit collision.
 *
 * <pre>{@code
 * KeyDigest d = KeyDigest.of("203.0.113.9");
 * }</pre>
 */
record KeyDigest(long high, long low) {

    private static final MessageDigest PROTOTYPE = sha256();

    static KeyDigest of(String key) {
        return of(key.getBytes(StandardCharsets.UTF_8));
    }

    static KeyDigest of(byte[] key) {
        ByteBuffer d = ByteBuffer.wrap(copy().digest(key));
        return new KeyDigest(d.getLong(), d.getLong());
    }

    /** The 16 bytes as 32 hex digits: a shared limit's key in Redis. */
    String hex() {
        return java.util.HexFormat.of().toHexDigits(high) + java.util.HexFormat.of().toHexDigits(low);
    }

    /** A clone of one prototype: cheaper than a provider lookup per key. */
    private static MessageDigest copy() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return sha256();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
