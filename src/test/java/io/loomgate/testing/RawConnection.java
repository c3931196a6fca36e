package io.loomgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One kept-alive client connection on a raw socket, to see exactly what a server sent: the status,
 * the headers, the body as framed, and whether the answer came whole (every byte its
 * Content-Length announced, or the last chunk) or was cut off by a close. Reads give up after 10 s.
 */
public final class RawConnection implements AutoCloseable {

    /**
     * @param complete true when the body came whole as its framing announced; false when the
     *                 connection closed part way (or before any answer: status -1)
     */
    public record Reply(int status, Map<String, String> headers, String body, boolean complete) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RawConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);   // a request is one write: no Nagle wait on its last segment
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends {@code request} and reads one answer; {@code head} says it answers a HEAD (no body). */
    public Reply exchange(String request, boolean head) throws IOException {
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return read(head);
    }

    public Reply get(String target) throws IOException {
        return exchange("GET " + target + " HTTP/1.1\r\nHost: loomgate\r\n\r\n", false);
    }

    private Reply read(boolean head) throws IOException {
        String status = line();
        if (status == null) {
            return new Reply(-1, Map.of(), "", false);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; (l = line()) != null && !l.isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip(), (a, b) -> a + ", " + b);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean complete = true;
        if (!head && code != 204 && code != 304) {
            try {
                complete = "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? chunked(body)
                        : headers.containsKey("content-length") ? fixed(body, Long.parseLong(headers.get("content-length")))
                        : untilClose(body);
            } catch (SocketException reset) {
                complete = false;
            }
        }
        return new Reply(code, headers, body.toString(StandardCharsets.ISO_8859_1), complete);
    }

    private boolean fixed(ByteArrayOutputStream body, long length) throws IOException {
        for (long i = 0; i < length; i++) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            body.write(b);
        }
        return true;
    }

    private boolean chunked(ByteArrayOutputStream body) throws IOException {
        while (true) {
            String size = line();
            if (size == null) {
                return false;
            }
            int n = Integer.parseInt(size.split(";")[0].strip(), 16);
            if (n == 0) {
                return line() != null;
            }
            if (!fixed(body, n) || line() == null) {
                return false;
            }
        }
    }

    private boolean untilClose(ByteArrayOutputStream body) throws IOException {
        in.transferTo(body);
        return true;
    }

    /** True when the server has closed this connection (an end of stream within {@code waitMs}). */
    public boolean closedByServer(int waitMs) throws IOException {
        socket.setSoTimeout(waitMs);
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try {
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    return null;
                }
                b.write(c);
            }
        } catch (SocketException reset) {
            return null;
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
