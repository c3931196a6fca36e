package io.loomgate.upstream.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.FileGate;
import io.loomgate.testing.MisbehavingUpstream;
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
 * {@code Expect: 100-continue} through a proxy route, on a raw socket as curl sends it for a large
 * upload: the client sends its head and waits; the gateway tells it {@code 100 Continue} when it
 * starts forwarding; the body goes on to the upstream, which gets it whole (without the
 * {@code Expect}, a hop of the client's own), and the client gets the upstream's answer.
 */
class ProxyExpectContinueTest {

    @TempDir
    Path dir;

    private static String until(InputStream in, String end) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.ISO_8859_1).contains(end)) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theClientIsToldToContinueAndTheUpstreamGetsTheWholeBody() throws Exception {
        try (MisbehavingUpstream up = MisbehavingUpstream.start();
             FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"url\": \"" + up.url("/") + "\"}",
                     List.of("{\"path\": \"/p/*\", \"policy\": \"proxy\", \"upstreams\": [\"api\"]}"));
             Socket s = new Socket("127.0.0.1", g.gate().baseUri().getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            String body = "hello after continue";
            out.write(("POST /p/inspect HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertTrue(until(in, "\r\n\r\n").startsWith("HTTP/1.1 100"), "told to continue before it sends its body");
            out.write(body.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            String id = answer.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("x-request-id:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElseThrow();
            MisbehavingUpstream.Seen seen = up.seenBy(id).getFirst();
            assertEquals(body, seen.body, "the upstream got the whole body");
            assertEquals(null, seen.header("Expect"), "the client's Expect is its own hop's");
        }
    }
}
