import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * Opens N connections to 127.0.0.1:PORT that each stop at one point of what a client must send,
 * prints "holding N", and holds them for MILLIS: the load harness's connections scenario reads the
 * gateway's heap after GC meanwhile. Kinds:
 * <ul>
 *   <li>{@code nothing}: connected, sent nothing;</li>
 *   <li>{@code head}: part of a request head, then silence;</li>
 *   <li>{@code idle}: one whole request, its answer read, then silence (keep-alive);</li>
 *   <li>{@code hello-part}: the first bytes of a TLS ClientHello record, then silence;</li>
 *   <li>{@code hello}: a whole ClientHello (made by the JDK's own TLS client), its answer never read;</li>
 *   <li>{@code h2-idle}: HTTP/2 in clear (h2c): the preface, SETTINGS, one {@code GET /health} as a
 *       stream, its answer read, then silence.</li>
 *   <li>{@code h2-busy}: h2c, four {@code POST /sink/x} streams whose bodies have not begun: their
 *       requests run, proxied to load/ClosedWindowUpstream.java, which never answers.</li>
 *   <li>{@code h2-full}: {@code h2-busy} at an HTTP/2 connection's worst: the first stream's fields
 *       fill the server's HPACK table (4 KiB), each stream sends its whole window of body (4 x 65,535
 *       octets: the connection's 256 KiB window), which the proxy cannot pass on (the upstream's
 *       window is closed), and a fifth stream's header block stops 59 KB in, before END_HEADERS.</li>
 * </ul>
 * Usage: {@code java load/StalledConnections.java PORT N KIND MILLIS}
 */
public class StalledConnections {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        String kind = args[2];
        byte[] hello = kind.equals("hello") ? clientHello() : null;
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket("127.0.0.1", port);
            OutputStream out = s.getOutputStream();
            switch (kind) {
                case "nothing" -> { }
                case "head" -> out.write("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes());
                case "idle" -> {
                    out.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
                    s.getInputStream().read(new byte[4096]);
                }
                case "hello-part" -> out.write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03});
                case "hello" -> out.write(hello);
                case "h2-idle" -> {
                    out.write(h2Request());
                    out.flush();
                    readAtLeast(s, 40);   // the server's SETTINGS, its WINDOW_UPDATE, the answer's HEADERS and DATA
                }
                case "h2-busy" -> out.write(h2Busy(false));
                case "h2-full" -> out.write(h2Busy(true));
                default -> throw new IllegalArgumentException("kind: nothing, head, idle, hello-part, hello, h2-idle, h2-busy or h2-full");
            }
            out.flush();
            held.add(s);
        }
        System.out.println("holding " + n);
        Thread.sleep(Long.parseLong(args[3]));
        for (Socket s : held) {
            s.close();
        }
    }

    /**
     * HTTP/2's preface, an empty SETTINGS, and a HEADERS frame (END_STREAM, END_HEADERS) on stream 1
     * for {@code GET /health}: HPACK from the static table (:method GET, :scheme http) and two
     * literals without indexing (:path, :authority), no Huffman.
     */
    private static byte[] h2Request() {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes());
        b.writeBytes(new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0});
        byte[] path = "/health".getBytes();
        java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
        block.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, 0x04, (byte) path.length});
        block.writeBytes(path);
        block.writeBytes(new byte[] {0x01, 0x01, 'x'});
        int n = block.size();
        b.writeBytes(new byte[] {0, 0, (byte) n, 0x1, 0x5, 0, 0, 0, 1});
        b.writeBytes(block.toByteArray());
        return b.toByteArray();
    }

    /** See {@code h2-busy} and {@code h2-full} above. */
    private static byte[] h2Busy(boolean full) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes());
        b.writeBytes(new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0});
        for (int stream = 1; stream <= 7; stream += 2) {
            java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
            block.writeBytes(new byte[] {(byte) 0x83, (byte) 0x86, 0x04, 7});   // :method POST, :scheme http, :path literal
            block.writeBytes("/sink/x".getBytes());
            block.writeBytes(new byte[] {0x01, 0x01, 'x'});   // :authority x
            if (full && stream == 1) {
                for (int i = 0; i < 31; i++) {   // 31 entries of 9 + 90 + 32 octets: 4,061 of the table's 4,096
                    block.writeBytes(new byte[] {0x40, 9});
                    block.writeBytes("x-fill-%02d".formatted(i).getBytes());
                    block.write(90);
                    block.writeBytes("v".repeat(90).getBytes());
                }
            }
            frame(b, 0x1, 0x4, stream, block.toByteArray());   // HEADERS, END_HEADERS, the stream left open for a body
        }
        if (full) {
            byte[] chunk = new byte[16_384];
            for (int stream = 1; stream <= 7; stream += 2) {
                for (int left = 65_535; left > 0; left -= 16_384) {
                    frame(b, 0x0, 0, stream, java.util.Arrays.copyOf(chunk, Math.min(left, 16_384)));
                }
            }
            java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
            block.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x01, 'x', 0x00, 5});   // GET / ... and x-big:
            block.writeBytes("x-big".getBytes());
            int value = 60_000;
            block.write(0x7f);   // the value's length, an HPACK integer: 127 and the rest in 7-bit groups
            for (int rest = value - 127; ; rest >>= 7) {
                if (rest < 128) {
                    block.write(rest);
                    break;
                }
                block.write((rest & 0x7f) | 0x80);
            }
            block.writeBytes("v".repeat(value).getBytes());
            byte[] all = block.toByteArray();
            int sent = 0;
            for (boolean first = true; all.length - sent > 1_000; first = false) {   // the last octets never come
                int n = Math.min(16_384, all.length - 1_000 - sent);
                frame(b, first ? 0x1 : 0x9, 0, 9, java.util.Arrays.copyOfRange(all, sent, sent + n));   // HEADERS, then CONTINUATION
                sent += n;
            }
        }
        return b.toByteArray();
    }

    private static void frame(java.io.ByteArrayOutputStream b, int type, int flags, int stream, byte[] payload) {
        int n = payload.length;
        b.writeBytes(new byte[] {(byte) (n >>> 16), (byte) (n >>> 8), (byte) n, (byte) type, (byte) flags,
                (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream});
        b.writeBytes(payload);
    }

    private static void readAtLeast(Socket s, int n) throws java.io.IOException {
        s.setSoTimeout(10_000);
        byte[] buf = new byte[4096];
        for (int got = 0; got < n; ) {
            int r = s.getInputStream().read(buf);
            if (r < 0) {
                throw new java.io.IOException("closed after " + got + " bytes");
            }
            got += r;
        }
    }

    /** The first flight of the JDK's TLS client: a ClientHello record. */
    private static byte[] clientHello() throws Exception {
        SSLEngine e = SSLContext.getDefault().createSSLEngine("127.0.0.1", 443);
        e.setUseClientMode(true);
        ByteBuffer net = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
        e.beginHandshake();
        e.wrap(ByteBuffer.allocate(0), net);
        net.flip();
        byte[] b = new byte[net.remaining()];
        net.get(b);
        return b;
    }
}
