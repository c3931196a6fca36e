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
import java.util.regex.Pattern;

/**
 * HTTP over a raw socket, for requests {@code HttpClient} refuses to send. Writes the bytes and reads
 * until the server closes. It half-closes once every request line it sent has a whole answer, or
 * when nothing has come for a while: a client that closes its side before it is answered has gone,
 * and loomgate's server cancels its request (as nginx does). The result is the first status code, or
 * -1 when the server closed without answering.
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
            byte[] bytes = readAll(s, request);
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

    /** How long a quiet server is waited for before this side closes, when the answers could not be counted. */
    private static final int QUIET_MS = 1_500;
    private static final Pattern REQUEST_LINE = Pattern.compile("(?m)^[A-Z]+ [^\r\n]* HTTP/[0-9.]+\r?$");

    /** Reads to the server's close, half-closing once every request has its answer (or the server goes quiet). */
    private static byte[] readAll(Socket s, byte[] request) throws IOException {
        long requests = REQUEST_LINE.matcher(new String(request, StandardCharsets.ISO_8859_1)).results().count();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        int len = 0;
        boolean halfClosed = false;
        s.setSoTimeout(QUIET_MS);
        try {
            while (true) {
                int n;
                try {
                    n = in.read(buf, len, buf.length - len);
                } catch (SocketTimeoutException quiet) {
                    if (halfClosed) {
                        throw quiet;
                    }
                    n = 0;
                    halfClosed = true;
                    shutdownOutput(s);
                    s.setSoTimeout(10_000);
                }
                if (n < 0) {
                    break;
                }
                len += n;
                if (!halfClosed && wholeAnswers(new String(buf, 0, len, StandardCharsets.ISO_8859_1)) >= requests) {
                    halfClosed = true;
                    shutdownOutput(s);
                    s.setSoTimeout(10_000);
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

    /** The final answers wholly in {@code text}: heads, with bodies framed by Content-Length or chunked. */
    public static int wholeAnswers(String text) {
        int count = 0;
        int at = 0;
        while (text.startsWith("HTTP/1.", at)) {
            int headEnd = text.indexOf("\r\n\r\n", at);
            if (headEnd < 0) {
                return count;
            }
            String head = text.substring(at, headEnd);
            int bodyStart = headEnd + 4;
            int status = Integer.parseInt(head.substring(9, 12));
            String length = field(head, "Content-Length");
            if (status / 100 == 1) {
                at = bodyStart;
                continue;
            }
            if (length != null) {
                at = bodyStart + Integer.parseInt(length);
            } else if ("chunked".equalsIgnoreCase(field(head, "Transfer-Encoding"))) {
                int last = text.indexOf("\r\n0\r\n\r\n", bodyStart - 2);
                at = last < 0 ? Integer.MAX_VALUE : last + 7;
            } else if (status == 204 || status == 304) {
                at = bodyStart;
            } else {
                return count;   // read until close
            }
            if (at > text.length()) {
                return count;
            }
            count++;
        }
        return count;
    }

    private static String field(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    private static void shutdownOutput(Socket s) {
        try {
            s.shutdownOutput();
        } catch (IOException closed) {
            // the server closed first: nothing more to say
        }
    }
}
