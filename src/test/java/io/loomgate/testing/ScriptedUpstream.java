package io.loomgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream on raw sockets whose answers are scripts: for a request to {@code /case/NAME} it runs
 * the script registered under NAME, which writes whatever bytes it likes, well formed or not, and
 * says whether to go on reading requests on that connection. {@code /ok/TAG} gets a clean
 * {@code {"tag":"TAG"}}. Every request is recorded with the number of the connection it came on,
 * so a test can see whether loomgate reused a connection, and what it sent.
 *
 * <p>With {@link #ignoringGetBodies()} it behaves like a naive server that never reads the body of
 * a GET: what follows the head is read as the next request.
 */
public final class ScriptedUpstream implements AutoCloseable {

    /** One request as the upstream read it; {@code index} counts the requests of its connection, from 1. */
    public record Seen(int connection, int index, String method, String target, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Writes an answer; returns true to read the next request on the same connection. */
    @FunctionalInterface
    public interface Script {
        boolean answer(Seen request, Socket socket, OutputStream out) throws IOException, InterruptedException;
    }

    /** A valid answer, to put after a real one: if loomgate took it for the next request's, a client would get it. */
    public static final String SMUGGLED = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"tag\":\"STOLEN\"}";

    private final ServerSocket server;
    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final java.util.Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean ignoreGetBodies;
    private final java.util.Set<String> beforeBody = ConcurrentHashMap.newKeySet();

    private ScriptedUpstream(int port) throws IOException {
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        Thread.ofVirtual().name("scripted-upstream").start(this::accept);
    }

    public static ScriptedUpstream start() throws IOException {
        return new ScriptedUpstream(0);
    }

    /** One on a given port: a test restarts an upstream where loomgate still has connections to the old one. */
    public static ScriptedUpstream start(int port) throws IOException {
        return new ScriptedUpstream(port);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Answers {@code /case/name} with exactly these bytes, then keeps the connection open for more. */
    public ScriptedUpstream raw(String name, String bytes) {
        return script(name, (r, s, out) -> {
            write(out, bytes);
            return true;
        });
    }

    public ScriptedUpstream script(String name, Script script) {
        scripts.put(name, script);
        return this;
    }

    /** A script that runs as soon as the head is read, with the body (if any) still unread: an upstream that never reads it. */
    public ScriptedUpstream scriptBeforeBody(String name, Script script) {
        beforeBody.add(name);
        return script(name, script);
    }

    public ScriptedUpstream ignoringGetBodies() {
        ignoreGetBodies = true;
        return this;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    /** Every request received, oldest first. */
    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** The last request whose target starts with {@code prefix}. */
    public Seen last(String prefix) {
        Seen found = null;
        for (Seen s : seen) {
            if (s.target().startsWith(prefix)) {
                found = s;
            }
        }
        if (found == null) {
            throw new AssertionError("the upstream saw no request for " + prefix + "; it saw " + seen);
        }
        return found;
    }

    public long count(String prefix) {
        return seen.stream().filter(s -> s.target().startsWith(prefix)).count();
    }

    public static void write(OutputStream out, String bytes) throws IOException {
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);   // an answer written in parts must not wait for the peer's delayed ACK
                int number = connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(s, number));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket, int number) {
        open.add(socket);
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int index = 1; ; index++) {
                Seen request = read(in, number, index);
                if (request == null) {
                    return;
                }
                seen.add(request);
                if (!answer(request, socket, out)) {
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the other side went away, or the test ended; what it sent is recorded
        } finally {
            open.remove(socket);
        }
    }

    private boolean answer(Seen r, Socket socket, OutputStream out) throws IOException, InterruptedException {
        String path = r.target().contains("?") ? r.target().substring(0, r.target().indexOf('?')) : r.target();
        if (path.startsWith("/ok/")) {
            String json = "{\"tag\":\"" + path.substring(4) + "\"}";
            write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + json.length()
                    + "\r\n\r\n" + (r.method().equals("HEAD") ? "" : json));
            return true;
        }
        Script script = path.startsWith("/case/") ? scripts.get(path.substring(6)) : null;
        if (script == null) {
            write(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            return true;
        }
        return script.answer(r, socket, out);
    }

    private Seen read(InputStream in, int number, int index) throws IOException {
        String requestLine = line(in);
        if (requestLine == null) {
            return null;
        }
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (String l; (l = line(in)) != null && !l.isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip(), (a, b) -> a + ", " + b);
        }
        String[] parts = requestLine.split(" ");
        String body = "";
        boolean skipBody = (ignoreGetBodies && parts[0].equals("GET"))
                || (parts[1].startsWith("/case/") && beforeBody.contains(parts[1].substring(6).split("\\?")[0]));
        if (!skipBody && headers.containsKey("content-length")) {
            body = new String(in.readNBytes(Integer.parseInt(headers.get("content-length"))), StandardCharsets.ISO_8859_1);
        } else if (!skipBody && "chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int n; (n = Integer.parseInt(required(line(in)).split(";")[0].strip(), 16)) > 0; line(in)) {
                b.write(in.readNBytes(n));
            }
            line(in);
            body = b.toString(StandardCharsets.ISO_8859_1);
        }
        return new Seen(number, index, parts[0], parts[1], headers, body);
    }

    private static String required(String line) throws IOException {
        if (line == null) {
            throw new java.io.EOFException("the connection closed in the middle of a chunked body");
        }
        return line;
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    /** Stops accepting and closes every connection still open, so no script outlives its test. */
    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
