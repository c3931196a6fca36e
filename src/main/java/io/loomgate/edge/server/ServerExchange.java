package io.loomgate.edge.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpPrincipal;
import io.loomgate.http1.FieldLines;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * One exchange as loomgate's server runs it, behind loomgate's own exchange ({@link WireExchange})
 * or the API's ({@link PlainExchange}, {@link TlsExchange}; {@link Dispatch} says which): the
 * request's head and body, the answer's head and body as {@code sendResponseHeaders} frames it (the
 * JDK's rules: a length, 0 for chunked, -1 for none; no body for HEAD, 1xx, 204 and 304),
 * {@code close} as the API defines it, and the two moments the connection waits for: the request's
 * body read to its end, and the handler's end.
 */
final class ServerExchange {

    private final Connection connection;
    private final RequestHead head;
    private final long arrivalNanos;
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final CountDownLatch bodyRead = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final List<Runnable> onGone = new CopyOnWriteArrayList<>();
    private final RequestBody requestBody;
    private final ResponseBody responseBody;
    private WireOutput wire;
    private InputStream userIn;
    private OutputStream userOut;
    private com.sun.net.httpserver.Headers apiRequestHeaders;
    private Context context;
    private HttpPrincipal principal;
    private volatile int status = -1;
    private volatile boolean headersSent;
    private volatile boolean keep;
    private volatile boolean closed;
    private volatile boolean gone;
    private boolean continued;

    ServerExchange(Connection connection, RequestHead head, long arrivalNanos) {
        this.connection = connection;
        this.head = head;
        this.arrivalNanos = arrivalNanos;
        this.keep = head.keepAlive();
        this.requestBody = new RequestBody(this, connection.input, head.length());
        this.responseBody = new ResponseBody(this);
    }

    /** The handler is done: an exchange it left open is closed; one it never answered, or broke off, drops the connection. */
    void finish(boolean answered) {
        try {
            if (!answered || !headersSent) {
                abort();
            } else {
                close();
                if (!responseBody.complete()) {
                    abort();
                }
            }
        } finally {
            end();
        }
    }

    /** The executor would not take the exchange: it ends, and so does its connection. */
    void refused() {
        keep = false;
        end();
    }

    /** The exchange is over: the connection hears of it first, then whoever waits for it. */
    private void end() {
        if (wire != null) {
            wire.release();
        }
        bodyRead.countDown();
        if (ended.getCount() > 0) {
            connection.exchangeEnded(this);
        }
        ended.countDown();
    }

    /** The API's {@code sendResponseHeaders}: the head from the API's response headers, which then show its framing. */
    void sendResponseHeaders(int code, long length) throws IOException {
        sendHead(code, length, ApiHeaders.of(responseHeaders));
        String[] framing = responseBody.framing();
        if (framing != null) {
            responseHeaders.set(framing[0], framing[1]);
        }
    }

    /**
     * Sends the answer's head with {@code fields}, framed by the API's rule for {@code length} (see
     * {@link ResponseBody}); the connection closes after it when the fields or the request say so.
     */
    void sendHead(int code, long length, io.loomgate.http.Headers fields) throws IOException {
        if (headersSent) {
            throw new IOException("the response headers were sent already");
        }
        if (code < 100 || code > 999) {
            throw new IllegalArgumentException("a status must be three digits: " + code);
        }
        status = code;
        wire = new WireOutput(connection.output);
        headersSent = true;
        long framed = responseBody.frame(code, length, fields.contains("Content-Length"));
        if (code == 101) {
            requestBody.tunnel(connection.input);
            connection.becameTunnel();
        }
        if (requestBody.wontDrain() || FieldLines.tokens(fields.all("Connection")).contains("close")) {
            keep = false;
        }
        String option = !keep && code != 101 ? "close" : !head.http11() && keep ? "keep-alive" : null;
        wire.write(Responses.head(code, fields, responseBody.framing(), option));
        if (framed < 0) {
            wire.flush();
            close();
        }
    }

    /** An interim answer ({@link io.loomgate.http.Exchange#interim}): to an HTTP/1.1 client, before the final head; else dropped. */
    void sendInterim(int code, io.loomgate.http.Headers fields) throws IOException {
        if (!headersSent && head.http11() && code > 101 && code < 200) {
            connection.output.write(Responses.interim(code, fields));
            connection.output.flush();
        }
    }

    /** Before the handler's first read of a body: the {@code 100 Continue} the client waits for. */
    void beforeBodyRead() throws IOException {
        if (head.expectContinue() && !headersSent && !continued) {
            continued = true;
            connection.output.write(Responses.proceed());
            connection.output.flush();
        }
    }

    /** True once the client was told {@code 100 Continue}. */
    boolean continued() {
        return continued;
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!headersSent) {
                abort();
                return;
            }
            requestBody.close();
            (userOut != null ? userOut : responseBody).close();
        } catch (IOException e) {
            abort();
        }
    }

    /** The connection ends now, without the rest of the answer: a client never takes a broken answer for a whole one. */
    void abort() {
        keep = false;
        connection.close();
    }

    /** The client closed its connection while the handler worked: the hooks cancel the work. */
    void clientGone() {
        gone = true;
        keep = false;
        onGone.forEach(Runnable::run);
    }

    long declaredBodyLeft() {
        return requestBody.declaredLeft();
    }

    void onClientGone(Runnable hook) {
        onGone.add(hook);
        if (gone) {
            hook.run();
        }
    }

    /** The request's body was read to its end, or left for good. */
    void bodyDone(boolean cleanly) {
        if (!cleanly) {
            keep = false;
        }
        bodyRead.countDown();
    }

    void awaitBodyOrEnd() {
        Latches.awaitUninterruptibly(bodyRead);
    }

    void awaitEnd() {
        Latches.awaitUninterruptibly(ended);
    }

    /** What opens when the exchange ends: to wait for its end without holding the exchange. */
    CountDownLatch endLatch() {
        return ended;
    }

    boolean ended() {
        return ended.getCount() == 0;
    }

    /** Whether the connection may carry another request after this one. */
    boolean keepsConnection() {
        return keep;
    }

    void mustClose() {
        keep = false;
    }

    RequestHead head() {
        return head;
    }

    /** The request's fields as the API shows them (names normalised, read-only), made when first asked for. */
    com.sun.net.httpserver.Headers apiRequestHeaders() {
        if (apiRequestHeaders == null) {
            apiRequestHeaders = ApiHeaders.readOnly(head.headers());
        }
        return apiRequestHeaders;
    }

    Connection connection() {
        return connection;
    }

    Headers responseHeaders() {
        return responseHeaders;
    }

    OutputStream wire() {
        return wire;
    }

    Context context() {
        return context;
    }

    void context(Context c) {
        this.context = c;
    }

    void principal(HttpPrincipal p) {
        this.principal = p;
    }

    InputStream requestBody() {
        return userIn != null ? userIn : requestBody;
    }

    OutputStream responseBody() {
        return userOut != null ? userOut : responseBody;
    }

    void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            userIn = i;
        }
        if (o != null) {
            userOut = o;
        }
    }

    int status() {
        return status;
    }

    Map<String, Object> attributes() {
        return attributes;
    }

    HttpPrincipal principal() {
        return principal;
    }

    long arrivalNanos() {
        return arrivalNanos;
    }

    boolean headRequest() {
        return head.method().equals("HEAD");
    }
}
