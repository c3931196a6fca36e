package io.loomgate.edge.server;

import io.loomgate.http1.ChunkedOutput;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An answer's body as {@code sendResponseHeaders} framed it, by the JDK server's rules: a length
 * above 0 is sent as {@code Content-Length} and must be written exactly; 0 is chunked (for an
 * HTTP/1.0 client: until the connection closes); -1 is none. HEAD, 1xx, 204 and 304 answers carry
 * none, whatever the handler says. Closing it finishes the answer; an answer short of its length
 * closes the connection instead, so the client sees it broken. After {@code 101}, the stream is the
 * connection itself, until either side closes (an upgraded protocol's bytes).
 */
final class ResponseBody extends OutputStream {

    private enum Kind { NONE, LENGTH, CHUNKED, UNTIL_CLOSE, TUNNEL }

    private final ServerExchange exchange;
    private Kind kind;
    private long left;
    private ChunkedOutput chunked;
    private boolean closed;
    private boolean complete;
    private String[] framing;

    ResponseBody(ServerExchange exchange) {
        this.exchange = exchange;
    }

    /**
     * Frames the body of an answer of {@code code}; {@link #framing()} then says the field that
     * announces it.
     *
     * @param hasLength whether the handler set a {@code Content-Length} itself (kept on a HEAD answer)
     * @return the length framed: -1 when there is no body to send
     */
    long frame(int code, long length, boolean hasLength) {
        if (code == 101) {
            kind = Kind.TUNNEL;
            exchange.mustClose();
            return 0;
        }
        boolean bodiless = (code >= 100 && code < 200) || code == 204 || code == 304;
        if (bodiless || exchange.headRequest()) {
            if (!bodiless && length > 0 && !hasLength) {
                framing = new String[] {"Content-Length", Long.toString(length)};
            }
            kind = Kind.NONE;
            return -1;
        }
        if (length == 0) {
            if (exchange.head().http11()) {
                framing = new String[] {"Transfer-Encoding", "chunked"};
                kind = Kind.CHUNKED;
                chunked = new ChunkedOutput(exchange.wire());
            } else {
                kind = Kind.UNTIL_CLOSE;
                exchange.mustClose();
            }
            return 0;
        }
        long sent = Math.max(length, 0);
        framing = new String[] {"Content-Length", Long.toString(sent)};
        kind = sent == 0 ? Kind.NONE : Kind.LENGTH;
        left = sent;
        return sent == 0 ? -1 : sent;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (kind == null) {
            throw new IOException("the response headers were not sent yet");
        }
        if (closed) {
            throw new IOException("the response body was closed");
        }
        switch (kind) {
            case NONE -> {
                if (len > 0 && !exchange.headRequest()) {
                    throw new IOException("this answer has no body");
                }
            }
            case LENGTH -> {
                if (len > left) {
                    throw new IOException("more bytes than the Content-Length of the answer");
                }
                exchange.wire().write(b, off, len);
                left -= len;
            }
            case CHUNKED -> chunked.write(b, off, len);
            case UNTIL_CLOSE -> exchange.wire().write(b, off, len);
            case TUNNEL -> {
                exchange.wire().write(b, off, len);
                exchange.wire().flush();
            }
        }
    }

    @Override
    public void flush() throws IOException {
        if (kind != null && !closed) {
            exchange.wire().flush();
        }
    }

    /** Finishes the answer: the last chunk, or the check that every announced byte was written. */
    @Override
    public void close() throws IOException {
        if (closed || kind == null) {
            return;
        }
        closed = true;
        switch (kind) {
            case CHUNKED -> chunked.finish();
            case LENGTH -> {
                if (left > 0) {
                    exchange.wire().flush();
                    exchange.abort();
                    throw new IOException("the answer ended " + left + " bytes short of its Content-Length");
                }
            }
            default -> { }
        }
        exchange.wire().flush();
        complete = true;
        if (kind == Kind.TUNNEL || kind == Kind.UNTIL_CLOSE) {
            exchange.abort();
        }
    }

    /** The framing field's name and value, as {@link #frame} chose it; null for none. */
    String[] framing() {
        return framing;
    }

    /** True once the answer was written whole. */
    boolean complete() {
        return complete;
    }
}
