package io.loomgate.edge.server;

import io.loomgate.http1.ChunkedInput;
import io.loomgate.http1.FixedInput;
import io.loomgate.http1.LineInput;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request's body as the handler reads it: {@code Content-Length} bytes, or chunked, decoded by the
 * codec, after a {@code 100 Continue} when the client asked for one. Read to its end, it tells the
 * exchange, so the connection can watch for a hang-up. A body that breaks its framing, ends early or
 * is left unread beyond {@link ServerLimits#DRAIN_BYTES} closes the connection afterwards: what
 * follows it could not be trusted to be the next request.
 */
final class RequestBody extends InputStream {

    private final ServerExchange exchange;
    private InputStream decoded;
    private boolean ended;

    RequestBody(ServerExchange exchange, LineInput in, long length) {
        this.exchange = exchange;
        this.decoded = length < 0 ? new ChunkedInput(in, io.loomgate.http1.HeadLimits.forRequest())
                : length > 0 ? new FixedInput(in, length) : null;
        if (decoded == null) {
            ended = true;
            exchange.bodyDone(true);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (ended) {
            return -1;
        }
        exchange.beforeBodyRead();
        try {
            int n = decoded.read(b, off, len);
            if (n < 0) {
                ended = true;
                exchange.bodyDone(true);
            }
            return n;
        } catch (IOException | RuntimeException e) {
            ended = true;
            exchange.bodyDone(false);
            throw e;
        }
    }

    /**
     * After a {@code 101}: from now on the body is the connection's bytes, whatever protocol they
     * speak, until the client closes or the idle timeout passes between two of them.
     */
    void tunnel(LineInput in) {
        decoded = in.rest();
        ended = false;
    }

    /**
     * The bytes the client has declared it will send next and not sent yet: what is left of the
     * {@code Content-Length}, or of the current chunk. A reader with a limit refuses a body that
     * declares more at once, as nginx does, rather than wait for bytes it would refuse.
     */
    long declaredLeft() {
        return switch (decoded) {
            case null -> 0;
            case FixedInput fixed -> fixed.left();
            case ChunkedInput chunked -> chunked.chunkLeft();
            default -> 0;
        };
    }

    /**
     * Whether what is left of the body will not be drained, so the connection must close after the
     * answer: the client waits for a {@code 100 Continue} it was never sent, or has declared more
     * than {@link ServerLimits#DRAIN_BYTES}.
     */
    boolean wontDrain() {
        return !ended && (exchange.head().expectContinue() && !exchange.continued()
                || declaredLeft() > ServerLimits.DRAIN_BYTES);
    }

    /** Reads and drops what is left, up to {@link ServerLimits#DRAIN_BYTES}, so the connection can carry another request. */
    @Override
    public void close() {
        if (ended) {
            return;
        }
        if (wontDrain()) {
            ended = true;
            exchange.bodyDone(false);   // the client waits to be told to send it, or declared more than is drained
            return;
        }
        byte[] scratch = new byte[8192];
        long left = ServerLimits.DRAIN_BYTES;
        try {
            for (int n; left > 0 && (n = read(scratch, 0, (int) Math.min(scratch.length, left))) >= 0; ) {
                left -= n;
            }
        } catch (IOException e) {
            return;
        }
        if (!ended) {
            ended = true;
            exchange.bodyDone(false);
        }
    }
}
