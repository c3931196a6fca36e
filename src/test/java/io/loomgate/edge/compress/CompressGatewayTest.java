package io.loomgate.edge.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.testing.FileGate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "compress"} through a real gateway: proxied (streamed) and fan-out (whole) answers of the
 * listed types are gzipped for a client that takes gzip, with {@code Vary: Accept-Encoding} and a
 * weak {@code ETag}; never an answer already encoded, marked {@code no-transform}, too small, of
 * another type, or to a {@code HEAD}.
 */
class CompressGatewayTest {

    @TempDir
    Path dir;
    private HttpServer upstream;
    private static final String BIG = "{\"items\":\"" + "abcdefgh".repeat(500) + "\"}";

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        upstream.createContext("/up/", x -> {
            String path = x.getRequestURI().getPath();
            byte[] body = BIG.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", path.endsWith("/png") ? "image/png" : "application/json");
            x.getResponseHeaders().set("ETag", "\"v1\"");
            switch (path) {
                case "/up/small" -> body = "{}".getBytes(StandardCharsets.UTF_8);
                case "/up/encoded" -> {
                    body = gzip(body);
                    x.getResponseHeaders().set("Content-Encoding", "gzip");
                }
                case "/up/notransform" -> x.getResponseHeaders().set("Cache-Control", "no-transform");
                default -> { }
            }
            x.sendResponseHeaders(200, x.getRequestMethod().equals("HEAD") ? -1 : body.length);
            if (!x.getRequestMethod().equals("HEAD")) {
                x.getResponseBody().write(body);
            }
            x.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private static byte[] gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] b) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(b))) {
            return in.readAllBytes();
        }
    }

    private FileGate gate() throws Exception {
        return FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/up/\"}, {\"id\": \"doc\", \"kind\": \"http\", \"url\": \"http://127.0.0.1:" + upstream.getAddress().getPort()
                        + "/up/big\"}",
                List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"], \"compress\": {\"types\": [\"application/json\"]}}",
                        "{\"path\": \"/doc\", \"policy\": \"single\", \"upstreams\": [\"doc\"], \"answer\": \"value\","
                                + " \"compress\": {\"minBytes\": \"1KB\"}}",
                        "{\"path\": \"/plain/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
    }

    private static HttpResponse<byte[]> get(FileGate g, String method, String path, String acceptEncoding) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.gate().uri(path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (acceptEncoding != null) {
            b.header("Accept-Encoding", acceptEncoding);
        }
        return g.client().http().send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String header(HttpResponse<?> r, String name) {
        return String.join(", ", r.headers().allValues(name));
    }

    @Test
    void aProxiedAndAWholeAnswerAreGzippedForAClientThatTakesIt() throws Exception {
        try (FileGate g = gate()) {
            for (String path : List.of("/p/big", "/doc")) {
                HttpResponse<byte[]> r = get(g, "GET", path, "br;q=1, gzip;q=0.8");
                assertEquals(200, r.statusCode());
                assertEquals("gzip", header(r, "Content-Encoding"), path);
                assertTrue(header(r, "Vary").contains("Accept-Encoding"), path + ": " + r.headers().map());
                assertTrue(r.body().length < BIG.length() / 4, path + ": " + r.body().length + " bytes");
                assertEquals(BIG, new String(gunzip(r.body()), StandardCharsets.UTF_8), path);
            }
            assertEquals("W/\"v1\"", header(get(g, "GET", "/p/big", "gzip"), "ETag"), "the bytes are not the upstream's: a weak ETag");
            HttpResponse<byte[]> plain = get(g, "GET", "/p/big", null);
            assertEquals("", header(plain, "Content-Encoding"));
            assertTrue(header(plain, "Vary").contains("Accept-Encoding"), "the plain form says it varies too");
            assertArrayEquals(BIG.getBytes(StandardCharsets.UTF_8), plain.body());
            assertEquals("", header(get(g, "GET", "/p/big", "gzip;q=0"), "Content-Encoding"), "q=0 refuses gzip");
        }
    }

    @Test
    void nothingThatMustNotBeCompressedIs() throws Exception {
        try (FileGate g = gate()) {
            HttpResponse<byte[]> encoded = get(g, "GET", "/p/encoded", "gzip");
            assertEquals("gzip", header(encoded, "Content-Encoding"), "once, the upstream's own");
            assertEquals(BIG, new String(gunzip(encoded.body()), StandardCharsets.UTF_8), "not gzipped twice");
            for (String path : List.of("/p/notransform", "/p/small", "/p/png", "/plain/big")) {
                assertEquals("", header(get(g, "GET", path, "gzip"), "Content-Encoding"), path);
            }
            HttpResponse<byte[]> head = get(g, "HEAD", "/p/big", "gzip");
            assertEquals("", header(head, "Content-Encoding"), "a HEAD is answered as the GET would be, unencoded");
            assertFalse(header(get(g, "GET", "/p/png", "gzip"), "Vary").contains("Accept-Encoding"), "another type does not vary");
        }
    }
}
