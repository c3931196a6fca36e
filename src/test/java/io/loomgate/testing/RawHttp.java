package io.loomgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * HTTP over a raw socket, for requests {@code HttpClient} refuses to send. Writes the bytes, reads
 * until the server closes, and half-closes once the first answer's head has come: a client that
 * closes its side before it is answered has gone, and loomgate's server cancels its request (as
 * nginx and Go's server do). The result is the status code, or -1 when the server closed without
 * answering.
 */
public final class RawHttp {

    /** What came back: a status (or -1 for a close without an answer) and the raw text. */
    public record Answer(int status, String text) {
        public boolean closedWithoutAnswer() {
            return status == -1;
        }

        /** The first value of header {@code name} in the first answer's head, or null. */
        public String header(String name) {
            int end = text.indexOf("\r\n\r\n");
            for (String line : text.substring(0, end < 0 ? text.length() : end).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }

    private RawHttp() {
    }

    public static Answer send(InetSocketAddress address, byte[] request) {
        try (Socket s = new Socket()) {
            s.connect(address, 5_000);
            s.setSoTimeout(10_000);
            try {
                s.getOutputStream().write(request);
            } catch (SocketException closedEarly) {
                // the server may close before reading everything (a 413, a header too large): read what it said
            }
            byte[] bytes = readAll(s);
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            if (!text.startsWith("HTTP/1.")) {
                return new Answer(-1, text);
            }
            return new Answer(Integer.parseInt(text.substring(9, 12)), text);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed within 10 s", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Answer send(InetSocketAddress address, String request) {
        return send(address, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads to the server's close, half-closing once a whole head has come (or nothing can come). */
    private static byte[] readAll(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        int len = 0;
        boolean halfClosed = false;
        try {
            for (int n; (n = in.read(buf, len, buf.length - len)) >= 0; ) {
                len += n;
                if (!halfClosed && new String(buf, 0, len, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                    halfClosed = true;
                    shutdownOutput(s);
                }
                if (len == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
        } catch (SocketException reset) {
            // a reset after the answer still leaves the answer
        }
        return Arrays.copyOf(buf, len);
    }

    private static void shutdownOutput(Socket s) {
        try {
            s.shutdownOutput();
        } catch (IOException closed) {
            // the server closed first: nothing more to say
        }
    }
}
