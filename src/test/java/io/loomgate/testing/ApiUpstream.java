package io.loomgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.awaitility.Awaitility;

/**
 * A JSON API upstream on raw sockets whose answers and timing the test decides, for composed
 * routes. {@link #answer} sets what a path answers; {@link #hold} makes every request under a path
 * wait until {@link #release}, watching its connection meanwhile. It keeps one log of events in the
 * order they happened: {@code start /users/7} when a request arrives, {@code end /users/7} when it
 * is answered, {@code closed /users/7} when loomgate closed the connection before the answer. That
 * log is how a test sees, from the upstream's side, which call started when and which was cancelled.
 * {@code end} is logged before the answer goes out, so whatever loomgate does with the answer comes
 * after it in the log. {@link #drop} closes the connection instead of answering ({@code dropped T}).
 *
 * <p>A path is matched by its whole target first ({@code /orders?userId=7}), then without the
 * query, then by the longest {@link #answer} or {@link #hold} prefix ending in {@code /}. Anything
 * else is a 404 with {@code {"error":"no such path"}}.
 */
public final class ApiUpstream implements AutoCloseable {

    /** One request as received: its target (path and query, as sent), headers (lower-case names) and body. */
    public record Request(String method, String target, Map<String, String> headers, String body) {
    }

    private record Answer(int status, String json) {
    }

    private final ServerSocket server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> holds = new ConcurrentHashMap<>();
    private final Map<String, java.time.Duration> delays = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> mostRunning = new ConcurrentHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final Map<String, Integer> failWith = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> serverNames = new ConcurrentLinkedQueue<>();

    private ApiUpstream(ServerSocket server) {
        this.server = server;
        Thread.ofVirtual().name("api-upstream").start(this::accept);
    }

    public static ApiUpstream start() throws IOException {
        return new ApiUpstream(new ServerSocket(0, 200, InetAddress.getLoopbackAddress()));
    }

    /** The same over TLS, presenting the certificate of {@code tls}. */
    public static ApiUpstream startTls(SSLContext tls) throws IOException {
        return new ApiUpstream(tls.getServerSocketFactory().createServerSocket(0, 200, InetAddress.getLoopbackAddress()));
    }

    /** The upstream's base URL, for a route file's {@code url}. */
    public String url() {
        return (server instanceof SSLServerSocket ? "https" : "http") + "://127.0.0.1:" + server.getLocalPort();
    }

    /** Connections open now: how a test sees loomgate close one it kept idle. */
    public int open() {
        return open.get();
    }

    /** Connections accepted so far: how a test sees whether loomgate kept one alive. */
    public int connections() {
        return connections.get();
    }

    public ApiUpstream answer(String path, int status, String json) {
        answers.put(path, new Answer(status, json));
        return this;
    }

    public ApiUpstream answer(String path, String json) {
        return answer(path, 200, json);
    }

    /**
     * The first {@code times} requests to {@code path} fail as {@code how} says: an HTTP status (503),
     * {@link #DROP} (the connection closed without an answer) or {@link #HANG} (no answer until
     * loomgate closes the connection); the requests after them get the path's answer.
     */
    public ApiUpstream failFirst(String path, int times, int how) {
        failures.put(path, new java.util.concurrent.atomic.AtomicInteger(times));
        failWith.put(path, how);
        return this;
    }

    /** For {@link #failFirst}: close the connection without answering. */
    public static final int DROP = 0;
    /** For {@link #failFirst}: answer nothing until the connection is closed. */
    public static final int HANG = -1;

    /** Answers to {@code path} (exactly) wait {@code delay} first: a slow replica. */
    public ApiUpstream delay(String path, java.time.Duration delay) {
        delays.put(path, delay);
        return this;
    }

    /** Requests to {@code path} get no answer: the connection is closed as soon as the request is read. */
    public ApiUpstream drop(String path) {
        return answer(path, 0, "");
    }

    /** Requests under {@code path} wait until {@link #release(String)} (or until loomgate closes them). */
    public ApiUpstream hold(String path) {
        holds.put(path, new CountDownLatch(1));
        return this;
    }

    public void release(String path) {
        CountDownLatch gate = holds.remove(path);
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Every event so far, in order: {@code start T}, {@code end T}, {@code closed T}, T the request's target. */
    public List<String> events() {
        return List.copyOf(events);
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Waits (up to 5 s) until {@code event} has happened. */
    public void await(String event) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> events.contains(event));
    }

    /** The most requests under {@code prefix} that were ever in progress at once. */
    public int mostAtOnce(String prefix) {
        AtomicInteger most = mostRunning.get(prefix);
        return most == null ? 0 : most.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);   // an answer written in parts must not wait for the peer's delayed ACK
                connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** The server names (SNI) TLS clients asked for, one entry per handshake. */
    public List<String> serverNames() {
        return List.copyOf(serverNames);
    }

    private void serve(Socket socket) {
        open.incrementAndGet();
        try (socket) {
            if (socket instanceof SSLSocket tls) {
                tls.startHandshake();
                List<SNIServerName> names = ((ExtendedSSLSession) tls.getSession()).getRequestedServerNames();
                serverNames.add(names.isEmpty() ? "" : new String(names.getFirst().getEncoded(), StandardCharsets.US_ASCII));
            }
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (Request r; (r = read(in)) != null; ) {
                requests.add(r);
                events.add("start " + r.target());
                String path = r.target().contains("?") ? r.target().substring(0, r.target().indexOf('?')) : r.target();
                String prefix = longestPrefix(path);
                AtomicInteger now = running.computeIfAbsent(prefix, p -> new AtomicInteger());
                mostRunning.computeIfAbsent(prefix, p -> new AtomicInteger()).accumulateAndGet(now.incrementAndGet(), Math::max);
                try {
                    if (!held(r, path, socket, in)) {
                        events.add("closed " + r.target());
                        return;
                    }
                    Answer a = answers.getOrDefault(r.target(), answers.getOrDefault(path,
                            answers.getOrDefault(prefix, new Answer(404, "{\"error\":\"no such path\"}"))));
                    AtomicInteger left = failures.get(path);
                    if (left != null && left.getAndDecrement() > 0) {
                        int how = failWith.get(path);
                        if (how == HANG) {
                            hang(socket, in);
                            events.add("closed " + r.target());
                            return;
                        }
                        a = new Answer(how, "{\"error\":\"failing on purpose\"}");
                    }
                    if (a.status() == 0) {
                        events.add("dropped " + r.target());
                        return;
                    }
                    java.time.Duration delay = delays.get(path);
                    if (delay != null) {
                        Thread.sleep(delay);
                    }
                    byte[] body = a.json().getBytes(StandardCharsets.UTF_8);
                    events.add("end " + r.target());
                    out.write(("HTTP/1.1 " + a.status() + " X\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                            + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                } finally {
                    now.decrementAndGet();
                }
            }
        } catch (IOException | InterruptedException gone) {
            // loomgate went away; the log says what happened before
        } finally {
            open.decrementAndGet();
        }
    }

    /** Reads until loomgate closes the connection (at most a minute). */
    private static void hang(Socket socket, InputStream in) throws IOException {
        socket.setSoTimeout(60_000);
        try {
            while (in.read() >= 0) {
                // whatever it sends, no answer comes
            }
        } catch (IOException closed) {
            // what we waited for
        }
    }

    /** Waits while a hold covers {@code path}; false when the connection closed meanwhile. */
    private boolean held(Request r, String path, Socket socket, InputStream in) throws IOException, InterruptedException {
        CountDownLatch gate = holds.getOrDefault(path, holds.get(longestPrefix(path)));
        if (gate == null) {
            return true;
        }
        socket.setSoTimeout(10);
        try {
            while (!gate.await(0, TimeUnit.MILLISECONDS)) {
                try {
                    if (in.read() < 0) {
                        return false;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    // nothing from loomgate: the call is still wanted
                } catch (IOException reset) {
                    return false;
                }
            }
            return true;
        } finally {
            socket.setSoTimeout(0);
        }
    }

    private String longestPrefix(String path) {
        String best = path;
        int bestLength = -1;
        for (String p : List.copyOf(answers.keySet()).reversed()) {
            if (p.endsWith("/") && path.startsWith(p) && p.length() > bestLength) {
                best = p;
                bestLength = p.length();
            }
        }
        for (String p : holds.keySet()) {
            if (p.endsWith("/") && path.startsWith(p) && p.length() > bestLength) {
                best = p;
                bestLength = p.length();
            }
        }
        return best;
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0; ) {
            head.write(b);
            if (b == '\n' && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
                String[] first = lines[0].split(" ");
                Map<String, String> headers = new LinkedHashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
                int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                return new Request(first[0], first[1], headers, body);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        holds.values().forEach(CountDownLatch::countDown);
        server.close();
    }
}
