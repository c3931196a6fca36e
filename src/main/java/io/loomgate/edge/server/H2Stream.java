package io.loomgate.edge.server;

import io.loomgate.http.AnswerWriter;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import io.loomgate.http.Trailers;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.StreamBody;
import io.loomgate.http2.hpack.HeaderField;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One HTTP/2 stream as the gateway takes it: the same {@link Exchange} an HTTP/1.1 request is, with
 * {@code HTTP/2.0} for its protocol. The answer's head goes out as a HEADERS frame (the fields lower
 * case, without HTTP/1.1's connection-specific ones, which HTTP/2 forbids), its body as DATA within
 * the client's windows, and its end as END_STREAM. An answer that is cut off, or never given, resets
 * the stream ({@code INTERNAL_ERROR}): the client never sees a broken answer as a whole one, and the
 * connection's other streams go on. A client's {@code RST_STREAM} runs the hooks that cancel the work.
 */
final class H2Stream implements Exchange, AnswerWriter.Wire, Trailers {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Set<String> NOT_SENT = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade");

    private final H2Connection connection;
    private final int id;
    private final String method;
    private final URI uri;
    private final Headers headers;
    private final long arrivalNanos;
    private final StreamBody body;
    private final long declaredLength;
    private final List<Runnable> onGone = new CopyOnWriteArrayList<>();
    private volatile boolean headSent;
    private volatile boolean complete;
    private volatile boolean ended;
    private volatile boolean gone;
    private volatile Thread runner;
    private volatile H2DataOutput output;

    H2Stream(H2Connection connection, int id, String method, URI uri, Headers headers, long arrivalNanos, StreamBody body,
             long declaredLength) {
        this.connection = connection;
        this.id = id;
        this.method = method;
        this.uri = uri;
        this.headers = headers;
        this.arrivalNanos = arrivalNanos;
        this.body = body;
        this.declaredLength = declaredLength;
    }

    /** The request's {@code content-length}; -1 when it had none. */
    long declaredLength() {
        return declaredLength;
    }

    int id() {
        return id;
    }

    StreamBody requestBody() {
        return body;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public String protocol() {
        return "HTTP/2.0";
    }

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public Headers headers() {
        return headers;
    }

    @Override
    public long arrivalNanos() {
        return arrivalNanos;
    }

    @Override
    public InetSocketAddress remote() {
        return connection.transport().remote();
    }

    InetSocketAddress local() {
        return connection.transport().local();
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public void write(Response answer, boolean head) throws IOException {
        AnswerWriter.write(answer, head, this);
    }

    @Override
    public void head(int status, long length, Headers fields) throws IOException {
        if (headSent) {
            throw new IOException("the response headers were sent already");
        }
        if (status < 200 || status > 999) {
            throw new IOException("HTTP/2 has no " + status + " answer here (no 1xx, no 101)");
        }
        List<HeaderField> block = new ArrayList<>(fields.size() + 2);
        block.add(new HeaderField(":status", String.valueOf(status)));
        if (!fields.contains("Date")) {
            block.add(new HeaderField("date", Responses.date()));   // a handler's own (a proxied answer's) goes as it is
        }
        fields.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!NOT_SENT.contains(lower) && !(lower.equals("content-length") && length == 0)) {
                block.add(new HeaderField(lower, value));
            }
        });
        boolean noBody = length < 0 || method.equals("HEAD") || status == 204 || status == 304;
        if (length > 0 && !fields.contains("Content-Length") && !noBody) {
            block.add(new HeaderField("content-length", String.valueOf(length)));
        }
        headSent = true;
        connection.out().headers(id, block, noBody, this::completed);
        if (!noBody) {
            output = new H2DataOutput(connection, this, length);
        }
    }

    /** An interim answer: a HEADERS frame with its {@code :status} that does not end the stream, before the final head. */
    @Override
    public void interim(int status, Headers fields) throws IOException {
        if (headSent || status <= 101 || status >= 200) {
            return;
        }
        List<HeaderField> block = new ArrayList<>(fields.size() + 1);
        block.add(new HeaderField(":status", String.valueOf(status)));
        fields.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!NOT_SENT.contains(lower)) {
                block.add(new HeaderField(lower, value));
            }
        });
        connection.out().headers(id, block, false, () -> { });
    }

    @Override
    public OutputStream output() throws IOException {
        if (output == null) {
            throw new IOException("the answer has no body");
        }
        return output;
    }

    @Override
    public void trailers(Headers fields) throws IOException {
        H2DataOutput body = output;
        if (body == null) {
            throw new IOException("trailers need an answer with a body, its head sent");
        }
        List<HeaderField> block = new ArrayList<>(fields.size());
        for (String name : fields.names()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith(":") || NOT_SENT.contains(lower)) {
                throw new IOException("no trailer may be " + name);
            }
            fields.all(name).forEach(value -> block.add(new HeaderField(lower, value)));
        }
        body.endWith(block);
    }

    @Override
    public void cutOff() {
        reset(ErrorCode.INTERNAL_ERROR);
    }

    @Override
    public void onClientGone(Runnable hook) {
        onGone.add(hook);
        if (gone) {
            hook.run();
        }
    }

    @Override
    public long declaredBodyLeft() {
        return declaredLength < 0 ? 0 : Math.max(0, declaredLength - body.received());
    }

    /** Ends the exchange as the API's close does: an answer left open is finished. */
    @Override
    public void close() {
        if (output != null && !complete) {
            try {
                output.close();
            } catch (IOException e) {
                reset(ErrorCode.INTERNAL_ERROR);
            }
        }
    }

    /** Runs the exchange's handler here, then ends the stream whatever it did. */
    void run(Runnable handler) {
        runner = Thread.currentThread();
        boolean answered = false;
        try {
            handler.run();
            answered = true;
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "the handler of " + method + " " + uri + " on stream " + id + " threw: " + e);
        } finally {
            runner = null;
            finish(answered);
        }
    }

    /** The handler is done: an answer never given or not whole resets the stream; an unread body goes back. */
    private void finish(boolean answered) {
        try {
            close();
            if (!answered || !headSent || !complete) {   // a refused stream is complete: no second reset
                reset(ErrorCode.INTERNAL_ERROR);
            } else if (!body.endReceived()) {
                reset(ErrorCode.NO_ERROR);   // answered before the client finished sending (RFC 9113 section 8.1)
            }
        } finally {
            body.discard();
            ended = true;
            connection.streamEnded(this);
        }
    }

    /** This side resets the stream, once, unless it ended whole. */
    private void reset(ErrorCode code) {
        if (!ended && !gone && (code == ErrorCode.NO_ERROR || !complete)) {
            complete = true;
            connection.resetLocally(id, code);
        }
    }

    /** The answer's body was sent whole, END_STREAM with it. */
    void completed() {
        complete = true;
        connection.endedLocally(id);
    }

    /** The client reset the stream, or its connection ended: the hooks cancel the work, and the thread running it is interrupted. */
    void clientGone(IOException why) {
        gone = true;
        complete = true;
        body.fail(why);
        onGone.forEach(Runnable::run);
        Thread t = runner;
        if (t != null) {
            t.interrupt();
        }
    }
}
