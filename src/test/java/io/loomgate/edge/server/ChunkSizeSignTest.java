package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.loomgate.http1.BodyLengths;
import io.loomgate.http1.Http1Exception;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chunk size is hex digits and nothing else: {@code +5}, {@code -5} and {@code 0x5} are each
 * refused by the codec, by loomgate's server (400, and the connection closed, so the bytes behind
 * it are never read as a request), and by the client from an upstream (a failed call, 502).
 */
class ChunkSizeSignTest {

    private static final List<String> SIGNED = List.of("+5", "-5", "0x5");

    @TempDir
    Path dir;

    @Test
    void theCodecRefusesASignOrAPrefix() {
        for (String size : SIGNED) {
            assertThrows(Http1Exception.class, () -> BodyLengths.chunkSize(size), size);
        }
    }

    @Test
    void loomgatesServerAnswers400AndClosesTheConnection() throws Exception {
        try (ApiUpstream api = ApiUpstream.start().answer("/", "{}");
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + api.url() + "/\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"), "--server", "loomgate")) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort());
            for (String size : SIGNED) {
                RawHttp.Answer a = RawHttp.send(at, "POST /p/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + size
                        + "\r\nhello\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(400, a.status(), size + ": " + a.text());
                assertEquals(1, RawHttp.wholeAnswers(a.text()), size + ": the bytes after a doubtful frame are never read as a request");
            }
        }
    }

    @Test
    void theClientRefusesThemFromAnUpstream() throws Exception {
        for (String size : SIGNED) {
            try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                Thread.ofVirtual().start(() -> {
                    while (!server.isClosed()) {
                        try (Socket s = server.accept()) {
                            InputStream in = s.getInputStream();
                            byte[] buf = new byte[4096];
                            in.read(buf);
                            s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                                    + size + "\r\nhello\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                            s.getOutputStream().flush();
                            in.read(buf);   // until loomgate closes it
                        } catch (IOException closed) {
                            // the next one, or the end
                        }
                    }
                });
                try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + server.getLocalPort()
                        + "/\"}", List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
                    assertEquals(502, g.client().get("/x").statusCode(), size);
                }
            }
        }
    }
}
