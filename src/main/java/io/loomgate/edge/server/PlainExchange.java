package io.loomgate.edge.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/** An exchange on a plain connection, as the API shows it; the work is {@link ServerExchange}'s. */
final class PlainExchange extends HttpExchange {

    private final ServerExchange x;

    PlainExchange(ServerExchange x) {
        this.x = x;
    }

    @Override
    public Headers getRequestHeaders() {
        return x.apiRequestHeaders();
    }

    @Override
    public Headers getResponseHeaders() {
        return x.responseHeaders();
    }

    @Override
    public URI getRequestURI() {
        return x.head().uri();
    }

    @Override
    public String getRequestMethod() {
        return x.head().method();
    }

    @Override
    public HttpContext getHttpContext() {
        return x.context();
    }

    @Override
    public void close() {
        x.close();
    }

    @Override
    public InputStream getRequestBody() {
        return x.requestBody();
    }

    @Override
    public OutputStream getResponseBody() {
        return x.responseBody();
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
        x.sendResponseHeaders(rCode, responseLength);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return x.connection().remote();
    }

    @Override
    public int getResponseCode() {
        return x.status();
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return x.connection().local();
    }

    @Override
    public String getProtocol() {
        return x.head().http11() ? "HTTP/1.1" : "HTTP/1.0";
    }

    @Override
    public Object getAttribute(String name) {
        return x.attributes().get(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (value == null) {
            x.attributes().remove(name);
        } else {
            x.attributes().put(name, value);
        }
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        x.setStreams(i, o);
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return x.principal();
    }
}
