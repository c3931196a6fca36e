package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slow upload through a proxy route: a small body is read whole before any upstream is
 * connected, so no upstream connection idles while it trickles in; the upstream gets head and body
 * together; and the route's timeout counts from the body's end, so an upload longer than the
 * timeout is not answered 504 for a request the upstream served.
 */
class ProxySlowUploadTest {

    @TempDir
    Path dir;

    @Test
    void aSmallBodyIsReadWholeBeforeTheUpstreamIsConnectedAndItsUploadTimeIsNotTheUpstreams() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{\"took\":\"it\"}");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"timeout\": \"2s\"}"));
             Socket s = new Socket("127.0.0.1", g.gate().baseUri().getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write("POST /p/up HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            for (char c : "ab".toCharArray()) {   // 1 byte a second: the upload outlasts the route's 2 s timeout
                Thread.sleep(1_000);
                out.write(c);
                out.flush();
            }
            Thread.sleep(1_000);
            assertEquals(0, api.connections(), "no upstream connection while the body trickles in");
            out.write('c');
            out.flush();
            String answer = readAnswer(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200"), "the timeout counts from the body's end: " + answer);
            assertTrue(answer.endsWith("{\"took\":\"it\"}"), answer);
            assertEquals("abc", api.requests().getFirst().body(), "the upstream got the whole body");
        }
    }

    @Test
    void aSmallChunkedBodyGoesOnWithItsLength() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/up", "{}");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
             Socket s = new Socket("127.0.0.1", g.gate().baseUri().getPort())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("POST /p/up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String answer = readAnswer(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            ApiUpstream.Request seen = api.requests().getFirst();
            assertEquals("hello world", seen.body());
            assertEquals("11", seen.headers().get("content-length"), "read whole, so sent with its length: " + seen.headers());
            assertEquals(null, seen.headers().get("transfer-encoding"), seen.headers().toString());
        }
    }

    private static String readAnswer(InputStream in) throws Exception {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (true) {
            String text = got.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end > 0) {
                String length = text.substring(0, end).lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                        .map(l -> l.substring(15).strip()).findFirst().orElse("0");
                if (got.size() >= end + 4 + Integer.parseInt(length)) {
                    return text;
                }
            }
            int n = in.read(buf);
            if (n < 0) {
                return text;
            }
            got.write(buf, 0, n);
        }
    }
}
