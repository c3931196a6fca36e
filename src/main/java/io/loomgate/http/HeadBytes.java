package io.loomgate.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A message head's bytes as they are put together: ISO-8859-1 straight into one array, grown when
 * needed, and written from it. A {@code StringBuilder}, its {@code String} and the string's bytes
 * took three arrays (four when the builder grew) for every head; this takes one.
 *
 * <pre>{@code
 * HeadBytes h = new HeadBytes(512).append("GET / HTTP/1.1").crlf().field("Host", "example.com").crlf();
 * h.writeTo(out);
 * }</pre>
 */
public final class HeadBytes {

    private byte[] bytes;
    private int size;

    public HeadBytes(int capacity) {
        bytes = new byte[capacity];
    }

    /** {@code s} in ISO-8859-1; a character beyond it as {@code ?}, as {@link String#getBytes} writes one. */
    public HeadBytes append(String s) {
        int n = s.length();
        room(n);
        byte[] b = bytes;
        int at = size;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            b[at++] = c <= 0xFF ? (byte) c : (byte) '?';
        }
        size = at;
        return this;
    }

    /** {@code name} with the first letter of each of its words upper-cased: {@code content-type} as {@code Content-Type}. */
    public HeadBytes appendCanonical(String name) {
        int n = name.length();
        room(n);
        byte[] b = bytes;
        int at = size;
        boolean start = true;
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (start && c >= 'a' && c <= 'z') {
                c -= 'a' - 'A';
            } else if (start && c > 0x7F) {
                c = Character.toUpperCase(c);
            }
            b[at++] = c <= 0xFF ? (byte) c : (byte) '?';
            start = c == '-';
        }
        size = at;
        return this;
    }

    public HeadBytes append(char c) {
        room(1);
        bytes[size++] = c <= 0xFF ? (byte) c : (byte) '?';
        return this;
    }

    /** {@code n} in decimal. */
    public HeadBytes append(long n) {
        return append(Long.toString(n));
    }

    /** A field line: {@code name: value} and its CRLF. */
    public HeadBytes field(String name, String value) {
        return append(name).append(": ").append(value).crlf();
    }

    public HeadBytes crlf() {
        room(2);
        bytes[size++] = '\r';
        bytes[size++] = '\n';
        return this;
    }

    public int length() {
        return size;
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write(bytes, 0, size);
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void room(int more) {
        if (bytes.length - size < more) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
