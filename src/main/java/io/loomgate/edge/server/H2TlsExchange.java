package io.loomgate.edge.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import javax.net.ssl.SSLSession;

/** An HTTP/2 stream over TLS as the API shows it: {@link H2ApiExchange}, and its connection's TLS session. */
final class H2TlsExchange extends HttpsExchange implements io.loomgate.http.Trailers {

    private final H2ApiExchange x;
    private final SSLSession session;

    H2TlsExchange(H2ApiExchange x, SSLSession session) {
        this.x = x;
        this.session = session;
    }

    @Override
    public SSLSession getSSLSession() {
        return session;
    }

    @Override
    public void trailers(io.loomgate.http.Headers fields) throws IOException {
        x.trailers(fields);
    }

    @Override
    public Headers getRequestHeaders() {
        return x.getRequestHeaders();
    }

    @Override
    public Headers getResponseHeaders() {
        return x.getResponseHeaders();
    }

    @Override
    public URI getRequestURI() {
        return x.getRequestURI();
    }

    @Override
    public String getRequestMethod() {
        return x.getRequestMethod();
    }

    @Override
    public HttpContext getHttpContext() {
        return x.getHttpContext();
    }

    @Override
    public void close() {
        x.close();
    }

    @Override
    public InputStream getRequestBody() {
        return x.getRequestBody();
    }

    @Override
    public OutputStream getResponseBody() {
        return x.getResponseBody();
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
        x.sendResponseHeaders(rCode, responseLength);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return x.getRemoteAddress();
    }

    @Override
    public int getResponseCode() {
        return x.getResponseCode();
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return x.getLocalAddress();
    }

    @Override
    public String getProtocol() {
        return x.getProtocol();
    }

    @Override
    public Object getAttribute(String name) {
        return x.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        x.setAttribute(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        x.setStreams(i, o);
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return x.getPrincipal();
    }
}
