package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FrameReader;
import io.loomgate.http2.FrameWriter;
import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.http2.hpack.HpackDecoder;
import io.loomgate.http2.hpack.HpackEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An h2c upstream that breaks HTTP/2, written frame by frame: an answer shorter than its
 * content-length never reaches the client as a whole one, a bad {@code :status} or a {@code 101} is a 502, and a
 * stream the upstream refused unprocessed is sent once more (a GET), the connection going on.
 */
class Http2UpstreamStrictTest {

    private ServerSocket listening;
    private final BlockingQueue<String> paths = new LinkedBlockingQueue<>();
    private final AtomicInteger refusals = new AtomicInteger();
    private Thread acceptor;

    @BeforeEach
    void start() throws IOException {
        listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(() -> {
            while (!listening.isClosed()) {
                try {
                    Socket s = listening.accept();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        listening.close();
        acceptor.join();
    }

    private void serve(Socket s) {
        try (s) {
            s.getInputStream().readNBytes(FrameReader.PREFACE.length);
            OutputStream out = s.getOutputStream();
            FrameReader reader = new FrameReader(s.getInputStream());
            HpackDecoder decoder = new HpackDecoder(4_096, 1 << 20);
            HpackEncoder encoder = new HpackEncoder(4_096, false, HpackEncoder.Indexing.ALL);
            out.write(FrameWriter.encode(new Frame.Settings(false, List.of())));
            for (Frame f = reader.read(); f != null; f = reader.read()) {
                if (f instanceof Frame.Settings st && !st.ack()) {
                    out.write(FrameWriter.encode(new Frame.Settings(true, List.of())));
                } else if (f instanceof Frame.Headers h) {
                    String path = decoder.decode(h.block(), 0, h.block().length).fields().stream()
                            .filter(x -> x.name().equals(":path")).findFirst().orElseThrow().value();
                    paths.add(path);
                    int id = h.streamId();
                    switch (path) {
                        case "/short" -> {
                            out.write(FrameWriter.encode(new Frame.Headers(id, encoder.encode(List.of(new HeaderField(":status", "200"),
                                    new HeaderField("content-length", "10"))), false, true, null)));
                            out.write(FrameWriter.encode(new Frame.Data(id, "12345".getBytes(StandardCharsets.US_ASCII), true, 5)));
                        }
                        case "/switch" -> out.write(FrameWriter.encode(new Frame.Headers(id,
                                encoder.encode(List.of(new HeaderField(":status", "101"))), false, true, null)));
                        case "/bad-status" -> out.write(FrameWriter.encode(new Frame.Headers(id,
                                encoder.encode(List.of(new HeaderField(":status", "2x0"))), true, true, null)));
                        case "/refused-once" -> {
                            if (refusals.getAndIncrement() == 0) {
                                out.write(FrameWriter.encode(new Frame.RstStream(id, ErrorCode.REFUSED_STREAM)));
                            } else {
                                out.write(FrameWriter.encode(new Frame.Headers(id, encoder.encode(List.of(new HeaderField(":status", "200"),
                                        new HeaderField("content-length", "2"))), false, true, null)));
                                out.write(FrameWriter.encode(new Frame.Data(id, "ok".getBytes(StandardCharsets.US_ASCII), true, 2)));
                            }
                        }
                        default -> out.write(FrameWriter.encode(new Frame.Headers(id, encoder.encode(List.of(new HeaderField(":status", "204"))),
                                true, true, null)));
                    }
                }
                out.flush();
            }
        } catch (IOException e) {
            // the gateway closed the connection
        }
    }

    private Loomgate gateway(Path dir) throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "h2", "kind": "http", "url": "http://127.0.0.1:%d", "protocol": "h2c"}],
                 "routes": [{"path": "/up/*", "policy": "proxy", "upstreams": ["h2"]}]}"""
                .formatted(listening.getLocalPort()));
        return Loomgate.start(CommandLine.config("--server", "loomgate", "--port", "0", "--routes", routes.toString()));
    }

    @Test
    void anAnswerShorterThanItsLengthIsNeverDeliveredWhole(@TempDir Path dir) throws Exception {
        try (Loomgate gate = gateway(dir); HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            IOException cut = assertThrows(IOException.class,
                    () -> client.send(HttpRequest.newBuilder(gate.uri("/up/short")).build(), HttpResponse.BodyHandlers.ofString()));
            assertNotNull(cut.getMessage());
            assertEquals("/short", paths.take());
        }
    }

    @Test
    void aBadStatusOrA101IsABadGatewayAndARefusedGetIsSentOnceMore(@TempDir Path dir) throws Exception {
        try (Loomgate gate = gateway(dir); HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> bad = client.send(HttpRequest.newBuilder(gate.uri("/up/bad-status")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(502, bad.statusCode(), bad.body());
            assertTrue(bad.body().contains("malformed"), bad.body());

            HttpResponse<String> switched = client.send(HttpRequest.newBuilder(gate.uri("/up/switch")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(502, switched.statusCode(), "HTTP/2 has no 101 (RFC 9113 section 8.6): " + switched.body());
            assertTrue(switched.body().contains("malformed"), switched.body());

            HttpResponse<String> refused = client.send(HttpRequest.newBuilder(gate.uri("/up/refused-once")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, refused.statusCode(), refused.body());
            assertEquals("ok", refused.body());
            assertEquals(2, refusals.get(), "refused once, then sent again");
        }
    }
}
