package io.loomgate.edge.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One client connection, kept open, for tests that speak HTTP/1.1 by hand: pipelining, 100-continue, keep-alive. */
final class Wire implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Wire(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Gives up a read after {@code millis}, with a {@link java.net.SocketTimeoutException}. */
    void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    void send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** One answer: its head up to the empty line, then its body by Content-Length or chunks. */
    String answer() throws IOException {
        String head = head();
        String length = header(head, "Content-Length");
        if (length != null) {
            return head + new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.ISO_8859_1);
        }
        if ("chunked".equalsIgnoreCase(header(head, "Transfer-Encoding"))) {
            StringBuilder body = new StringBuilder();
            for (int size; (size = Integer.parseInt(line(), 16)) > 0; ) {
                body.append(new String(in.readNBytes(size), StandardCharsets.ISO_8859_1));
                line();
            }
            line();
            return head + body;
        }
        return head;
    }

    /** A head up to its empty line. */
    String head() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line; !(line = line()).isEmpty(); ) {
            sb.append(line).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new IOException("the server closed the connection; read so far: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads body bytes into {@code b} from {@code off}; -1 at the end. */
    int read(byte[] b, int off) throws IOException {
        return in.read(b, off, b.length - off);
    }

    /** True when the server closed the connection: a read ends. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (IOException reset) {
            return true;
        }
    }

    static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    static int status(String answer) {
        return Integer.parseInt(answer.substring(9, 12));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
