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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An HTTP/2 stream as the API's {@link HttpExchange} shows it, for a context served through the
 * API (its filters, its authenticator, a plain {@code HttpHandler}): {@code getProtocol()} says
 * {@code HTTP/2.0}; {@code sendResponseHeaders} frames the answer by the API's rule (a length, 0
 * for a body of unknown length, -1 for none), which DATA frames then carry. The work is
 * {@link H2Stream}'s. Over TLS it is wrapped in {@link H2TlsExchange}.
 */
final class H2ApiExchange extends HttpExchange implements io.loomgate.http.Trailers {

    private final H2Stream stream;
    private final Context context;
    private final Headers requestHeaders;
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile int status = -1;
    private volatile HttpPrincipal principal;
    private InputStream in;
    private OutputStream out;

    H2ApiExchange(H2Stream stream, Context context) {
        this.stream = stream;
        this.context = context;
        this.requestHeaders = ApiHeaders.readOnly(stream.headers());
    }

    void principal(HttpPrincipal p) {
        this.principal = p;
    }

    @Override
    public Headers getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return stream.uri();
    }

    @Override
    public String getRequestMethod() {
        return stream.method();
    }

    @Override
    public HttpContext getHttpContext() {
        return context;
    }

    @Override
    public void close() {
        stream.close();
    }

    @Override
    public InputStream getRequestBody() {
        return in != null ? in : stream.body();
    }

    /** The answer's body: DATA frames once the head is sent; before it, a write fails as the API says. */
    @Override
    public OutputStream getResponseBody() {
        if (out != null) {
            return out;
        }
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                stream.output().write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                if (status >= 0) {
                    stream.output().flush();
                }
            }

            @Override
            public void close() {
                stream.close();
            }
        };
    }

    @Override
    public void sendResponseHeaders(int rCode, long responseLength) throws IOException {
        status = rCode;
        stream.head(rCode, responseLength, ApiHeaders.of(responseHeaders));
    }

    @Override
    public void trailers(io.loomgate.http.Headers fields) throws IOException {
        stream.trailers(fields);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return stream.remote();
    }

    @Override
    public int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return stream.local();
    }

    @Override
    public String getProtocol() {
        return stream.protocol();
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            in = i;
        }
        if (o != null) {
            out = o;
        }
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return principal;
    }
}
