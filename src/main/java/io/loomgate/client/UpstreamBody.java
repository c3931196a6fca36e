package io.loomgate.client;

import io.loomgate.http.Headers;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * An upstream answer's body as a proxy streams it, whichever protocol brought it: an HTTP/1.1
 * connection's ({@link Http1Body}) or an HTTP/2 stream's ({@link H2ResponseBody}). Reading it to its
 * end finishes the exchange; closing it earlier abandons it (the HTTP/1.1 connection is closed, the
 * HTTP/2 stream reset).
 */
public abstract sealed class UpstreamBody extends InputStream permits Http1Body, H2ResponseBody {

    /** From now on each read may wait {@code idle} (a streamed body's own clock, not the head's deadline). */
    public abstract void streaming(Duration idle);

    /** True when octets of the body have come already, so the first read will not wait. */
    public abstract boolean hasBufferedBytes();

    /** After a {@code 101}: the way to the upstream, for a tunnel (HTTP/1.1 only). */
    public abstract OutputStream tunnel();

    /** True when the body has been read to its end, or had none. */
    public abstract boolean ended();

    /** The octets read so far. */
    public abstract long delivered();

    /** The trailer fields that ended the body (HTTP/2's trailing HEADERS), once read to its end; none over HTTP/1.1. */
    public Headers trailers() {
        return Headers.EMPTY;
    }

    @Override
    public abstract void close();
}
