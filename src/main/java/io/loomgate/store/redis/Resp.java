package io.loomgate.store.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * RESP2, the Redis protocol, as strictly as loomgate reads HTTP/1.1: a command is written as an
 * array of bulk strings; a reply is read with every size bounded (a line, a bulk string, an array's
 * length and nesting), every line ending in CRLF, every number in its one canonical form, and only
 * the five RESP2 types. Anything else is a {@link MalformedReply}, after which the connection it
 * came on is never used again: where the next reply starts is no longer known.
 */
public final class Resp {

    /** The longest simple string, error or number line. */
    static final int MAX_LINE = 4096;
    /** The most items in one array, and the deepest nesting. */
    static final int MAX_ITEMS = 1024;
    static final int MAX_DEPTH = 4;

    /** A reply that breaks the protocol or a bound. */
    public static final class MalformedReply extends IOException {
        MalformedReply(String message) {
            super(message);
        }
    }

    private final long maxBulk;

    /** @param maxBulk the longest bulk string a reply may hold */
    public Resp(long maxBulk) {
        this.maxBulk = maxBulk;
    }

    /** Writes one command: {@code *N CRLF}, then each argument as {@code $LEN CRLF bytes CRLF}, to a buffered {@code out}. */
    public static void write(OutputStream out, byte[]... args) throws IOException {
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            out.write(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(a);
            out.write(CRLF);
        }
    }

    private static final byte[] CRLF = {'\r', '\n'};

    /** The arguments as UTF-8 bytes. */
    public static byte[][] args(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return b;
    }

    /** Reads one reply. */
    public Reply read(InputStream in) throws IOException {
        return read(in, 0);
    }

    private Reply read(InputStream in, int depth) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new java.io.EOFException("Redis closed the connection");
        }
        return switch (type) {
            case '+' -> new Reply.Simple(line(in));
            case '-' -> new Reply.Error(line(in));
            case ':' -> new Reply.Int(number(line(in), Long.MIN_VALUE, Long.MAX_VALUE));
            case '$' -> bulk(in, number(line(in), -1, maxBulk));
            case '*' -> array(in, (int) number(line(in), -1, MAX_ITEMS), depth);
            default -> throw new MalformedReply("a reply of unknown type 0x" + Integer.toHexString(type) + " (RESP2 has + - : $ *)");
        };
    }

    private Reply bulk(InputStream in, long length) throws IOException {
        if (length < 0) {
            return new Reply.Bulk(null);
        }
        byte[] bytes = in.readNBytes((int) length);
        if (bytes.length < length) {
            throw new java.io.EOFException("Redis closed the connection within a bulk string");
        }
        crlf(in);
        return new Reply.Bulk(bytes);
    }

    private Reply array(InputStream in, int count, int depth) throws IOException {
        if (count < 0) {
            return new Reply.Array(null);
        }
        if (depth >= MAX_DEPTH) {
            throw new MalformedReply("arrays nested deeper than " + MAX_DEPTH);
        }
        List<Reply> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(read(in, depth + 1));
        }
        return new Reply.Array(List.copyOf(items));
    }

    /** A line up to CRLF, which must come within {@link #MAX_LINE} bytes; no bare CR or LF within. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(32);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new java.io.EOFException("Redis closed the connection within a line");
            }
            if (c == '\r') {
                if (in.read() != '\n') {
                    throw new MalformedReply("a CR not followed by LF");
                }
                return b.toString(StandardCharsets.UTF_8);
            }
            if (c == '\n') {
                throw new MalformedReply("a bare LF");
            }
            if (b.size() >= MAX_LINE) {
                throw new MalformedReply("a line longer than " + MAX_LINE + " bytes");
            }
            b.write(c);
        }
    }

    private static void crlf(InputStream in) throws IOException {
        if (in.read() != '\r' || in.read() != '\n') {
            throw new MalformedReply("a bulk string not ended by CRLF where its length said");
        }
    }

    /** {@code -?(0|[1-9][0-9]*)}, not {@code -0}, at most 20 characters: checked by hand, as it is on every reply. */
    private static boolean canonical(String s) {
        int start = s.startsWith("-") ? 1 : 0;
        int digits = s.length() - start;
        if (digits < 1 || s.length() > 20 || (s.charAt(start) == '0' && (digits > 1 || start == 1))) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A number in its canonical form (no sign but a leading minus, no leading zero), within [min, max]. */
    private static long number(String s, long min, long max) throws MalformedReply {
        boolean canonical = canonical(s);
        long v;
        try {
            v = canonical ? Long.parseLong(s) : 0;
        } catch (NumberFormatException e) {
            canonical = false;   // past a long
            v = 0;
        }
        if (!canonical) {
            throw new MalformedReply("not a number: " + io.loomgate.config.Printable.shorten(s, 24));
        }
        if (v < min || v > max) {
            throw new MalformedReply("a length or count of " + v + ", outside " + min + " to " + max);
        }
        return v;
    }
}
