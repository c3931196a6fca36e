package io.loomgate.client;

import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.net.IoWatchdog;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * HTTP/2 to upstreams ({@code "protocol": "h2"} over TLS by ALPN, {@code "h2c"} in clear with prior
 * knowledge, {@code "auto"} over TLS when ALPN chooses h2, else {@link NotChosen} and the caller
 * speaks HTTP/1.1, remembered for five minutes): a request is a stream on a connection shared with
 * others to the same origin, up to the upstream's stream limit; another connection opens when every
 * one is full. A cancelled call (an
 * interrupt, a hedge's loser, the client gone) resets its stream with {@code CANCEL} and leaves the
 * connection to the others. A request the upstream refused unprocessed (REFUSED_STREAM, a
 * {@code GOAWAY} below it) is sent once more on another connection when it is idempotent and has no
 * body; no other is sent twice. HTTP/2 has no {@code Upgrade}: a request asking for one (a WebSocket
 * handshake, the JDK client's {@code Upgrade: h2c}) goes as a plain request, and a {@code 101} back
 * is a malformed answer.
 */
final class H2Client implements AutoCloseable {

    private final int connectTimeoutMs;
    private final IoWatchdog watchdog;
    private final Map<String, List<H2Session>> sessions = new ConcurrentHashMap<>();
    private final Map<String, ReentrantLock> opening = new ConcurrentHashMap<>();
    /** Origins ({@code auto}) whose ALPN chose HTTP/1.1, and when (nanoTime): asked again after {@link #RELEARN_NANOS}. */
    private final Map<String, Long> http1Chosen = new ConcurrentHashMap<>();
    private static final long RELEARN_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(5);

    /**
     * An {@code auto} origin's ALPN chose HTTP/1.1: nothing was sent; the request goes over HTTP/1.1,
     * on {@link #connection()}, the one whose handshake chose it.
     */
    static final class NotChosen extends IOException {
        private final transient Http1Connection connection;

        NotChosen(String message, Http1Connection connection) {
            super(message);
            this.connection = connection;
        }

        Http1Connection connection() {
            return connection;
        }
    }

    private final java.util.function.Function<String, OriginStats.Counts> counts;

    /** @param counts each origin's counters, by its key */
    H2Client(int connectTimeoutMs, IoWatchdog watchdog, java.util.function.Function<String, OriginStats.Counts> counts) {
        this.connectTimeoutMs = connectTimeoutMs;
        this.watchdog = watchdog;
        this.counts = counts;
    }

    /** {@link Http1Client#send}, over HTTP/2. */
    UpstreamResponse send(OutgoingRequest request, long deadlineNanos, Duration idle, Duration afterBody) throws IOException {
        List<HeaderField> fields = H2Fields.request(request);
        boolean body = request.body() != null;
        for (int attempt = 0; ; attempt++) {
            H2Session s = session(request.origin(), idle);
            H2Call call;
            try {
                call = s.start(request.method(), fields, !body);
            } catch (H2Refused e) {
                if (attempt == 0) {
                    continue;   // the connection closed before this request went: nothing of it was sent
                }
                throw e;
            } catch (IOException e) {
                if (attempt == 0 && request.replayable()) {
                    continue;
                }
                throw e;
            }
            H2Sender sender = body ? H2Sender.start(s, call, request) : null;
            try {
                ResponseHead head = call.awaitHead(() -> sender == null ? deadlineNanos : sender.deadline(deadlineNanos, afterBody),
                        () -> sender != null && sender.going(), request.interim());
                Framing framing = call.framing();
                return new UpstreamResponse(head, framing, new H2ResponseBody(s, call, framing.kind() == Framing.Kind.EMPTY),
                        sender == null ? BodySender.NONE : sender);
            } catch (IOException | RuntimeException e) {
                s.cancel(call);
                if (sender != null) {
                    sender.await();
                }
                if (call.refused()) {
                    counts.apply(request.origin().key()).h2Refused.increment();
                }
                if (attempt == 0 && call.refused() && request.replayable()) {
                    continue;   // not processed (RFC 9113 section 8.7): once more, elsewhere
                }
                throw e;
            }
        }
    }

    /** A connection to {@code origin} with room for one more stream (a place taken on it), opened if none has. */
    private H2Session session(Origin origin, Duration idle) throws IOException {
        List<H2Session> open = sessions.computeIfAbsent(origin.key(), k -> new CopyOnWriteArrayList<>());
        H2Session found = reserve(open);
        if (found != null) {
            return found;
        }
        ReentrantLock lock = opening.computeIfAbsent(origin.key(), k -> new ReentrantLock());
        lock.lock();   // one connection opens at a time: requests that came together share it
        try {
            found = reserve(open);
            if (found != null) {
                return found;
            }
            H2Session fresh;
            try {
                fresh = H2Session.open(origin, connectTimeoutMs, idle.toNanos(), watchdog, counts.apply(origin.key()), open::remove);
            } catch (NotChosen e) {
                counts.apply(origin.key()).http1Opened.increment();
                http1Chosen.put(origin.key(), System.nanoTime());
                throw e;
            }
            counts.apply(origin.key()).h2Opened.increment();
            if (!fresh.tryReserve()) {
                throw new IOException("a new HTTP/2 connection to " + origin.key() + " took no stream");
            }
            open.add(fresh);
            return fresh;
        } finally {
            lock.unlock();
        }
    }

    private static H2Session reserve(List<H2Session> open) {
        for (H2Session s : open) {
            if (s.tryReserve()) {
                return s;
            }
        }
        return null;
    }

    /** Whether {@code key} ({@code auto}) chose HTTP/1.1 within the last five minutes. */
    boolean choseHttp1(String key) {
        Long at = http1Chosen.get(key);
        if (at != null && System.nanoTime() - at > RELEARN_NANOS) {
            http1Chosen.remove(key, at);
            return false;
        }
        return at != null;
    }

    /** Connections open to {@code key} now. */
    int open(String key) {
        List<H2Session> list = sessions.get(key);
        return list == null ? 0 : list.size();
    }

    /** Streams open to {@code key} now, over all its connections. */
    int streams(String key) {
        List<H2Session> list = sessions.get(key);
        return list == null ? 0 : list.stream().mapToInt(H2Session::active).sum();
    }

    /** Connections to {@code key} with no stream open close now. */
    void closeIdle(String key) {
        List<H2Session> list = sessions.get(key);
        if (list != null) {
            list.stream().filter(s -> s.active() == 0).forEach(s -> s.shut(new java.io.EOFException("closed as idle")));
        }
    }

    @Override
    public void close() {
        sessions.values().forEach(list -> list.forEach(s -> s.shut(new java.io.EOFException("the client was closed"))));
        sessions.clear();
    }
}
