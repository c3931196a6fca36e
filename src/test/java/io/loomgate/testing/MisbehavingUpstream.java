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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An HTTP/1.1 upstream on raw sockets, for fault tests: it can answer slowly, hang after its
 * headers, reset mid-body or send too much, and it records each request it received: its headers,
 * when it came, when it was answered, and when the client closed the connection under it. That last
 * one is how tests see a cancellation on the upstream's side.
 *
 * <p>Paths: {@code /json}, {@code /text}, {@code /binary}, {@code /echo} (the request's headers as
 * JSON), {@code /inspect} (method, target, body and headers), {@code /created} (a 201 with
 * repeated and hop-by-hop headers), {@code /drip} (half a body, a pause, the rest),
 * {@code /slow?ms=N}, {@code /status?code=N&ms=N}, {@code /redirect}, {@code /bad-json},
 * {@code /big?bytes=N}, {@code /hang-after-headers}, {@code /reset}, and {@code /straggler?ms=N},
 * where only the first call of each {@code X-Request-Id} waits (so a hedge's backup wins).
 */
public final class MisbehavingUpstream implements AutoCloseable {

    /** One request as the upstream saw it. Times are {@link System#nanoTime()} values; 0 for "not yet". */
    public static final class Seen {
        public final String method;
        public final String target;
        public final String path;
        public final Map<String, List<String>> headers;
        public volatile String body = "";
        public final long receivedAt = System.nanoTime();
        public volatile long answeredAt;
        public volatile long closedAt;
        /** For {@code /drip}: when the second half began to go out. */
        public volatile long restSentAt;

        Seen(String method, String target, String path, Map<String, List<String>> headers) {
            this.method = method;
            this.target = target;
            this.path = path;
            this.headers = headers;
        }

        public String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null ? null : v.getFirst();
        }
    }

    private final ServerSocket server;
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final Thread acceptor;

    private MisbehavingUpstream(ServerSocket server) {
        this.server = server;
        this.acceptor = Thread.ofVirtual().name("misbehaving-upstream").start(this::accept);
    }

    public static MisbehavingUpstream start() throws IOException {
        return new MisbehavingUpstream(new ServerSocket(0, 200, InetAddress.getLoopbackAddress()));
    }

    /** A loopback port nothing listens on (it was free a moment ago): connecting to it is refused. */
    public static int refusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Waits (up to 2 s) until the client has closed the connection under {@code s}. */
    public static Seen awaitClosed(Seen s) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> s.closedAt != 0);
        return s;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    /** Every request received, oldest first. */
    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** The requests received with {@code X-Request-Id: requestId}, oldest first. */
    public List<Seen> seenBy(String requestId) {
        return seen.stream().filter(s -> requestId.equals(s.header("X-Request-Id"))).toList();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);   // an answer written in parts must not wait for the peer's delayed ACK
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                List<String> head = readHead(in);
                if (head == null) {
                    return;
                }
                String[] line = head.getFirst().split(" ");
                String target = line[1];
                String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
                Map<String, String> query = query(target);
                Seen s = new Seen(line[0], target, path, headers(head));
                s.body = readBody(in, s);
                seen.add(s);
                if (!answer(socket, in, out, s, query)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away; what it did is recorded
        }
    }

    /** Answers one request; false when the connection must not be reused. */
    private boolean answer(Socket socket, InputStream in, OutputStream out, Seen s, Map<String, String> q)
            throws IOException {
        int ms = Integer.parseInt(q.getOrDefault("ms", "0"));
        if (s.path.equals("/straggler") && seenBy(String.valueOf(s.header("X-Request-Id"))).size() > 1) {
            ms = 0;  // only a request's first call straggles; its hedge is answered at once
        }
        if (ms > 0 && waitOrClosed(socket, in, s, ms)) {
            return false;
        }
        switch (s.path) {
            case "/json" -> send(out, s, 200, "application/json", "{\"a\":1,\"b\":[true,null]}");
            case "/slow" -> send(out, s, 200, "application/json", "{\"slept\":" + ms + "}");
            case "/straggler" -> send(out, s, 200, "application/json", "{\"slept\":" + ms + "}");
            case "/text" -> send(out, s, 200, "text/plain; charset=utf-8", "plain words");
            case "/binary" -> send(out, s, 200, "image/png", "\u0089PNG\r\n\u001a\n");
            case "/bad-json" -> send(out, s, 200, "application/json", "{\"a\":");
            case "/redirect" -> sendRaw(out, s, "HTTP/1.1 302 Found\r\nLocation: /json\r\nContent-Length: 0\r\n\r\n", "");
            case "/status" -> send(out, s, Integer.parseInt(q.get("code")), "application/json", "{\"error\":\"down\"}");
            case "/big" -> send(out, s, 200, "application/json", "\"" + "x".repeat(Integer.parseInt(q.get("bytes"))) + "\"");
            case "/echo" -> send(out, s, 200, "application/json", echo(s));
            case "/inspect" -> send(out, s, 200, "application/json", "{\"method\":\"" + s.method + "\",\"target\":\""
                    + s.target + "\",\"body\":\"" + s.body.replace("\"", "'") + "\",\"headers\":" + echo(s) + "}");
            case "/created" -> sendRaw(out, s, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Upstream: yes\r\n"
                    + "Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nConnection: keep-alive, X-Secret\r\nX-Secret: hop\r\n"
                    + "Content-Length: 13\r\n\r\n", "{\"made\":true}");
            case "/drip" -> {
                String chunk = "d".repeat(65_536);
                sendRaw(out, s, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + 2 * chunk.length()
                        + "\r\n\r\n", chunk);
                if (waitOrClosed(socket, in, s, 400)) {
                    return false;
                }
                s.restSentAt = System.nanoTime();
                out.write(chunk.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            case "/hang-after-headers" -> {
                sendRaw(out, s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", "[1,2,3,");
                waitOrClosed(socket, in, s, 30_000);
                return false;
            }
            case "/reset" -> {
                sendRaw(out, s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", "[1,2,3,");
                socket.setSoLinger(true, 0);
                socket.close();
                return false;
            }
            default -> send(out, s, 404, "text/plain", "no such path");
        }
        return true;
    }

    /** Waits up to {@code ms}, reading: true when the client closed the connection first (recorded). */
    private static boolean waitOrClosed(Socket socket, InputStream in, Seen s, int ms) throws IOException {
        long end = System.nanoTime() + Duration.ofMillis(ms).toNanos();
        while (true) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            socket.setSoTimeout((int) left);
            try {
                if (in.read() < 0) {
                    s.closedAt = System.nanoTime();
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                s.closedAt = System.nanoTime();
                return true;
            } finally {
                socket.setSoTimeout(0);
            }
        }
    }

    private static void send(OutputStream out, Seen s, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        sendRaw(out, s, "HTTP/1.1 " + status + " X\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length
                + "\r\n\r\n", body);
    }

    /**
     * Writes the head and, except in answer to HEAD (which HTTP says has no body), the body. The
     * time is taken before the bytes go out, so whatever the answer makes loomgate do (cancel a
     * sibling, send a backup) is seen after it.
     */
    private static void sendRaw(OutputStream out, Seen s, String head, String body) throws IOException {
        s.answeredAt = System.nanoTime();
        out.write((s.method.equals("HEAD") ? head : head + body).getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static String echo(Seen s) {
        StringBuilder sb = new StringBuilder("{");
        s.headers.forEach((k, v) -> {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(k).append("\":\"").append(String.join(",", v).replace("\"", "'")).append('"');
        });
        return sb.append('}').toString();
    }

    /** Reads a body announced by Content-Length or sent chunked; empty otherwise. */
    private static String readBody(InputStream in, Seen s) throws IOException {
        String length = s.header("Content-Length");
        if (length != null) {
            return new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.ISO_8859_1);
        }
        if (!"chunked".equalsIgnoreCase(s.header("Transfer-Encoding"))) {
            return "";
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            int n = Integer.parseInt(readLine(in).split(";")[0].trim(), 16);
            if (n == 0) {
                readLine(in);
                return body.toString(StandardCharsets.ISO_8859_1);
            }
            body.write(in.readNBytes(n));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
            line.write(b);
        }
        return line.toString(StandardCharsets.ISO_8859_1).strip();
    }

    private static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0; ) {
            if (b == '\n') {
                String l = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
                if (l.isEmpty()) {
                    return lines;
                }
                lines.add(l);
                line.reset();
            } else {
                line.write(b);
            }
        }
        return null;
    }

    private static Map<String, List<String>> headers(List<String> head) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String l : head.subList(1, head.size())) {
            int colon = l.indexOf(':');
            headers.computeIfAbsent(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(l.substring(colon + 1).trim());
        }
        return headers;
    }

    private static Map<String, String> query(String target) {
        Map<String, String> q = new LinkedHashMap<>();
        int at = target.indexOf('?');
        if (at >= 0) {
            for (String pair : target.substring(at + 1).split("&")) {
                int eq = pair.indexOf('=');
                q.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        return q;
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }
}
