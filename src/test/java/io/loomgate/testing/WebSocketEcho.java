package io.loomgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A WebSocket echo upstream on raw sockets, for the upgrade tests (RFC 6455): it answers an upgrade
 * with {@code 101} and the right {@code Sec-WebSocket-Accept}, then sends every text or binary
 * message back, answers pings, and closes when told to. It records each upgrade's path and headers,
 * and when each connection ended, so a test sees from the upstream's side that a tunnel closed.
 */
public final class WebSocketEcho implements AutoCloseable {

    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    /** One upgrade as the echo saw it. */
    public static final class Seen {
        public final String path;
        public final Map<String, String> headers;
        public volatile long closedAt;

        Seen(String path, Map<String, String> headers) {
            this.path = path;
            this.headers = headers;
        }
    }

    private final ServerSocket server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private WebSocketEcho(ServerSocket server) {
        this.server = server;
        Thread.ofVirtual().name("websocket-echo").start(this::accept);
    }

    public static WebSocketEcho start() throws IOException {
        return new WebSocketEcho(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    /** {@code http://127.0.0.1:PORT} plus {@code path}. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        Seen one = null;
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String requestLine = line(in);
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String h; !(h = line(in)).isEmpty(); ) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
            }
            one = new Seen(requestLine.split(" ")[1], headers);
            seen.add(one);
            String key = headers.get("Sec-WebSocket-Key");
            if (key == null || !"websocket".equalsIgnoreCase(headers.get("Upgrade"))) {
                out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
            out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            echo(new DataInputStream(in), out);
        } catch (IOException gone) {
            // the peer went away: the tunnel is over
        } finally {
            if (one != null) {
                one.closedAt = System.nanoTime();
            }
        }
    }

    /** Frames in, frames back: text and binary echoed, ping answered, close returned and ended. */
    private static void echo(DataInputStream in, OutputStream out) throws IOException {
        while (true) {
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            int opcode = b0 & 0x0f;
            long length = b1 & 0x7f;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            byte[] mask = new byte[4];
            if ((b1 & 0x80) != 0) {
                in.readFully(mask);
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i % 4];
            }
            switch (opcode) {
                case 0x8 -> {
                    frame(out, 0x8, payload);
                    return;
                }
                case 0x9 -> frame(out, 0xA, payload);
                case 0xA -> { }
                default -> frame(out, b0 & 0x0f, payload);
            }
        }
    }

    private static void frame(OutputStream out, int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write(0x80 | opcode);
        if (payload.length < 126) {
            f.write(payload.length);
        } else {
            f.write(126);
            f.write(payload.length >>> 8);
            f.write(payload.length & 0xff);
        }
        f.write(payload);
        out.write(f.toByteArray());
        out.flush();
    }

    static String accept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("closed in a head");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
