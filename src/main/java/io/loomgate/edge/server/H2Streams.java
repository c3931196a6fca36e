package io.loomgate.edge.server;

import io.loomgate.core.engine.ConnectionScope;
import io.loomgate.http.Headers;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.StreamBody;
import io.loomgate.http2.HeaderBlocks;
import io.loomgate.http2.Http2Exception;
import io.loomgate.http2.RequestFields;
import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.http2.hpack.HpackDecoder;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Turns a whole header block into a stream and runs it: the request's pseudo-headers and fields
 * checked ({@link RequestFields}), {@code :authority} as {@code Host}, the {@code cookie} fields
 * joined into one (RFC 9113 section 8.2.3), and the stream forked into its connection's scope, where
 * its handler runs as an HTTP/1.1 exchange's does: through the server's executor, counted for a
 * drain, as loomgate's own exchange for an {@link ExchangeHandler} and as the API's otherwise
 * ({@link H2ApiExchange}, through the context's filters and authenticator). A header block on a stream already open is its trailers, which end the body and are not
 * passed on. What cannot become a request is answered here: a header list past the limit 431, a
 * target that is not a URI 400, {@code CONNECT} 501, no context 404.
 */
final class H2Streams {

    private final H2Connection connection;
    private final Listener listener;

    H2Streams(H2Connection connection, Listener listener) {
        this.connection = connection;
        this.listener = listener;
    }

    void open(HeaderBlocks.Block block, HpackDecoder.Block decoded, ConnectionScope scope) throws IOException {
        int id = block.streamId();
        boolean trailers = connection.states().isOpen(id);
        connection.states().headers(id, block.endStream());
        if (trailers) {
            H2Stream running = connection.live(id);
            if (running != null) {
                checkLength(running, 0, true);
                running.requestBody().offer(new byte[0], true);   // the body ends here
            }
            return;
        }
        if (connection.goingAway()) {
            connection.resetLocally(id, ErrorCode.REFUSED_STREAM);
            return;
        }
        if (decoded.tooLarge()) {
            answerAtOnce(id, 431, block.endStream());
            return;
        }
        RequestFields request = RequestFields.of(decoded.fields(), id);
        if (request.method().equals("CONNECT")) {
            answerAtOnce(id, 501, block.endStream());
            return;
        }
        URI uri;
        try {
            uri = new URI(request.path());
        } catch (URISyntaxException e) {
            answerAtOnce(id, 400, block.endStream());
            return;
        }
        Headers headers = headers(request, id);
        long declared = declaredLength(headers, id);
        if (block.endStream() && declared > 0) {
            throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, id, "no DATA where content-length said " + declared);
        }
        if (!block.endStream() && declared < 0) {
            // A body of unknown length (every gRPC request's): said as HTTP/1.1 says it, so a handler reads it.
            headers = headers.with("Transfer-Encoding", "chunked");
        }
        StreamBody body = new StreamBody(id, connection::credit, listener.limits().idleTimeout().toNanos(), block.endStream());
        H2Stream s = new H2Stream(connection, id, request.method(), uri, headers, System.nanoTime(), body, declared);
        connection.opened(s);
        listener.exchangeStarted();
        listener.stats().h2Streams.increment();
        scope.fork(() -> s.run(() -> dispatch(s)));
    }

    /** The stream's handler, found and run as an HTTP/1.1 request's is: a context with no handler, or none for the path, is a 404. */
    private void dispatch(H2Stream s) {
        String path = s.uri().getPath() == null || s.uri().getPath().isEmpty() ? "/" : s.uri().getPath();
        Context context = listener.contexts().find(path);
        try {
            if (context == null || context.getHandler() == null) {
                s.head(404, -1, Headers.EMPTY);
                return;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Runnable task = () -> {
            try {
                if (context.getHandler() instanceof ExchangeHandler direct && context.getFilters().isEmpty()
                        && context.getAuthenticator() == null) {
                    direct.handle(s);
                } else {
                    H2ApiExchange api = new H2ApiExchange(s, context);
                    javax.net.ssl.SSLSocket tls = connection.transport().tls();
                    ContextChain.run(context, tls == null ? api : new H2TlsExchange(api, tls.getSession()), api::principal);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        Executor executor = listener.executor();
        if (executor == null) {
            task.run();
        } else if (executor instanceof InlineExecutor here) {
            here.runHere(task, s.arrivalNanos());
        } else {
            elsewhere(s, task, executor);
        }
    }

    /** An executor that runs exchanges on threads of its own: the stream's subtask waits for it, and passes on a cancel. */
    private static void elsewhere(H2Stream s, Runnable task, Executor executor) {
        CountDownLatch done = new CountDownLatch(1);
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    done.countDown();
                }
            });
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the server is shutting down", e);
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            s.clientGone(new IOException("the connection ended"));
            Latches.awaitUninterruptibly(done);
        }
    }

    private static Headers headers(RequestFields request, int id) throws Http2Exception {
        Headers.Builder b = Headers.builder();
        StringBuilder cookies = null;
        String host = null;
        for (HeaderField f : request.fields()) {
            switch (f.name()) {
                case "cookie" -> cookies = cookies == null ? new StringBuilder(f.value()) : cookies.append("; ").append(f.value());
                case "host" -> {
                    if (host != null) {
                        throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, id, "two host fields");
                    }
                    host = f.value();
                }
                default -> b.add(f.name(), f.value());
            }
        }
        String authority = request.authority();
        if (authority != null && host != null && !authority.equalsIgnoreCase(host)) {
            throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, id, "a host field that is not the :authority");
        }
        List<String> first = new ArrayList<>(2);
        if (authority != null || host != null) {
            first.add(authority != null ? authority : host);
        }
        Headers.Builder all = Headers.builder();
        first.forEach(h -> all.add("Host", h));
        all.addAll(b.build());
        if (cookies != null) {
            all.add("cookie", cookies.toString());
        }
        return all.build();
    }

    private static long declaredLength(Headers headers, int id) throws Http2Exception {
        List<String> lengths = headers.all("content-length");
        if (lengths.isEmpty()) {
            return -1;
        }
        String v = lengths.getFirst();
        if (lengths.size() > 1 || v.isEmpty() || v.length() > 18 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, id, "a content-length that is not one number");
        }
        return Long.parseLong(v);
    }

    /**
     * DATA past the declared {@code content-length}, or short of it at the end, is malformed (RFC 9113
     * section 8.1.1): checked before the octets reach the handler, which then never sees the body end
     * (the connection cancels the stream for any stream error).
     */
    static void checkLength(H2Stream s, int more, boolean ended) throws Http2Exception {
        long declared = s.declaredLength();
        long received = s.requestBody().received() + more;
        if (declared >= 0 && (received > declared || (ended && received != declared))) {
            throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, s.id(),
                    received + " octets of DATA where content-length said " + declared);
        }
    }

    /** An answer with no handler and no body; a client still sending is then told to stop. */
    private void answerAtOnce(int id, int status, boolean requestEnded) throws IOException {
        connection.out().headers(id, List.of(new HeaderField(":status", String.valueOf(status)),
                new HeaderField("content-length", "0")), true, () -> connection.endedLocally(id));
        if (!requestEnded) {
            connection.resetLocally(id, ErrorCode.NO_ERROR);
        }
    }
}
