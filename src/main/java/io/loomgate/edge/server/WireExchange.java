package io.loomgate.edge.server;

import io.loomgate.http.AnswerWriter;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * An exchange of loomgate's server as the gateway takes it, with no API object in between: the
 * request's fields as the codec read them, the answer's written from loomgate's {@link Headers}
 * straight to the wire. What the JDK's server cannot give comes with it: word that the client hung up,
 * the body it has declared, and a switch of protocols (an {@code Upgrade} that is not an HTTP/1.1
 * {@code GET} without a body goes on as a plain request, its {@code Upgrade} dropped, as RFC 9110
 * section 7.8 allows).
 */
final class WireExchange implements Exchange, AnswerWriter.Wire {

    private final ServerExchange x;
    private final Headers headers;

    WireExchange(ServerExchange x) {
        this.x = x;
        Headers all = x.head().headers();
        this.headers = x.head().upgrade() || !all.contains("Upgrade") ? all : all.without("upgrade"::equals);
    }

    @Override
    public String method() {
        return x.head().method();
    }

    @Override
    public URI uri() {
        return x.head().uri();
    }

    @Override
    public String protocol() {
        return x.head().http11() ? "HTTP/1.1" : "HTTP/1.0";
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public long arrivalNanos() {
        return x.arrivalNanos();
    }

    @Override
    public InetSocketAddress remote() {
        return x.connection().remote();
    }

    @Override
    public InputStream body() {
        return x.requestBody();
    }

    @Override
    public void write(Response answer, boolean head) throws IOException {
        AnswerWriter.write(answer, head, this);
    }

    @Override
    public void head(int status, long length, Headers fields) throws IOException {
        x.sendHead(status, length, fields);
    }

    @Override
    public void interim(int status, Headers fields) throws IOException {
        x.sendInterim(status, fields);
    }

    @Override
    public OutputStream output() {
        return x.responseBody();
    }

    /** The connection ends now: the client sees the answer broken, never finished. */
    @Override
    public void cutOff() {
        x.abort();
    }

    @Override
    public void onClientGone(Runnable hook) {
        x.onClientGone(hook);
    }

    @Override
    public long declaredBodyLeft() {
        return x.declaredBodyLeft();
    }

    @Override
    public void close() {
        x.close();
    }
}
