package io.loomgate.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Generates requests that are each wrong in at least one way, from a seed, so a failure can be
 * replayed. Every request ends with a blank line, so the server never waits for more input; the
 * answer must be a 4xx, a 501, a 505, or a closed connection.
 */
public final class MalformedRequests {

    private static final List<String> PATHS = List.of("/health", "/block", "/aggregate", "/first-success", "/metrics",
            "/compute", "/nope", "/a/b/c");
    private static final List<String> BAD_VERSIONS = List.of("HTTP/2.0", "HTTP/0.9", "HTTP/1.2", "http/1.1", "HTTP/11",
            "HTTP/", "FOO/1.1", "HTTP/1.1.1");
    private static final List<String> PATH_TRICKS = List.of("/..", "/../health", "//health", "/%2e%2e/health", "/%2E/x",
            "/health;x=1", "/a%00b", "/a%2fb", "/a\\b", "/./health", "/health/..", "/%C0%AE%C0%AE/x");
    private static final List<String> BAD_ENCODINGS = List.of("%", "%G1", "%zz", "%4", "%C0%AE", "%FF%FE", "%E2%82");
    private static final List<String> BAD_QUERIES = List.of("timeout=99999999999999ms", "timeout=0", "timeout=-5ms",
            "timeout=abc", "timeout=1s&timeout=2s", "delay=db:xyz", "delay=db:-1s", "delay=nope:1s", "delay=db",
            "delay=db:2m", "fail=bogus", "fail=", "fail=db,,file");
    /** Bad values of n, which only endpoints that run compute read. */
    private static final List<String> BAD_NS = List.of("n=0", "n=-1", "n=1e9", "n=99999999999999999999", "n=5&n=6",
            "n=", "n=10000001");

    private final SplittableRandom random;

    public MalformedRequests(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** One malformed request, as raw bytes. */
    public byte[] next() {
        Function<SplittableRandom, byte[]> defect = DEFECTS.get(random.nextInt(DEFECTS.size()));
        return defect.apply(random);
    }

    private static String pick(SplittableRandom r, List<String> from) {
        return from.get(r.nextInt(from.size()));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String token(SplittableRandom r, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('A' + r.nextInt(26)));
        }
        return sb.toString();
    }

    private static String request(String line, String... headers) {
        StringBuilder sb = new StringBuilder(line).append("\r\nHost: localhost\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private static final List<Function<SplittableRandom, byte[]>> DEFECTS = List.of(
            // garbage where the request line should be
            r -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int n = 1 + r.nextInt(200);
                for (int i = 0; i < n; i++) {
                    int b = r.nextInt(256);
                    out.write(b == '\r' || b == '\n' ? 'x' : b);
                }
                out.writeBytes(ascii("\r\n\r\n"));
                return out.toByteArray();
            },
            // a request line missing its parts
            r -> ascii(request(pick(r, List.of("GET", "GET /health", "/health HTTP/1.1", "GET  HTTP/1.1", "GET\t/health\tHTTP/1.1")))),
            // a method HTTP does not define (the X keeps a random token from spelling GET)
            r -> ascii(request("X" + token(r, r.nextInt(12)) + " " + pick(r, PATHS) + " HTTP/1.1")),
            // a lowercase method
            r -> ascii(request(pick(r, List.of("get", "post", "head", "Get")) + " " + pick(r, PATHS) + " HTTP/1.1")),
            // a version other than HTTP/1.0 or HTTP/1.1
            r -> ascii(request("GET " + pick(r, PATHS) + " " + pick(r, BAD_VERSIONS))),
            // path tricks
            r -> ascii(request(pick(r, List.of("GET", "HEAD", "POST")) + " " + pick(r, PATH_TRICKS) + " HTTP/1.1")),
            // bad percent-encoding, in the path or the query
            r -> ascii(request("GET " + (r.nextBoolean() ? "/he" + pick(r, BAD_ENCODINGS) + "alth"
                    : "/health?x=" + pick(r, BAD_ENCODINGS)) + " HTTP/1.1")),
            // raw non-ASCII bytes in the path or the query
            r -> {
                String raw = new String(new char[] {(char) (0x80 + r.nextInt(128)), (char) (0x80 + r.nextInt(128))});
                return ascii(request("GET " + (r.nextBoolean() ? "/caf" + raw : "/block?x=" + raw) + " HTTP/1.1"));
            },
            // absurd parameter values on real endpoints
            r -> ascii(request("GET " + pick(r, List.of("/block", "/aggregate", "/compute", "/multi-aggregate")) + "?"
                    + pick(r, BAD_QUERIES) + " HTTP/1.1")),
            r -> ascii(request("GET " + pick(r, List.of("/compute", "/multi-aggregate")) + "?" + pick(r, BAD_NS) + " HTTP/1.1")),
            // too many parameters
            r -> {
                StringBuilder q = new StringBuilder("/block?");
                for (int i = 0, n = 65 + r.nextInt(200); i < n; i++) {
                    q.append('p').append(i).append("=1&");
                }
                return ascii(request("GET " + q + " HTTP/1.1"));
            },
            // a very long target: 414 up to the JDK's limit, a closed connection beyond it
            r -> ascii(request("GET /block?x=" + "a".repeat(9_000 + r.nextInt(r.nextBoolean() ? 10_000 : 80_000)) + " HTTP/1.1")),
            // very large or very many headers
            r -> r.nextBoolean()
                    ? ascii(request("GET /health HTTP/1.1", "X-Big: " + "b".repeat(17_000 + r.nextInt(60_000))))
                    : ascii(request("GET /health HTTP/1.1", manyHeaders(101 + r.nextInt(150)))),
            // bad Content-Length, or a body that is too large
            r -> ascii(request("GET " + pick(r, PATHS) + " HTTP/1.1", pick(r, List.of("Content-Length: abc",
                    "Content-Length: -5", "Content-Length: 1\r\nContent-Length: 2", "Content-Length: 3\r\nTransfer-Encoding: chunked",
                    "Transfer-Encoding: gzip", "Content-Length: 99999999999", "Content-Length: " + (2_000_000 + r.nextInt(9_000_000)))))),
            // header names a server must refuse
            r -> ascii(request("GET /health HTTP/1.1", pick(r, List.of("Bad Name: x", "X\u00e9: y", "(x): y", "X@Y: z", ": empty")))),
            // asterisk-form or absolute-form to something that does not exist
            r -> ascii(request(pick(r, List.of("OPTIONS * HTTP/1.1", "GET * HTTP/1.1", "GET http://example.com/nope HTTP/1.1",
                    "PRI * HTTP/2.0")))));

    private static String[] manyHeaders(int n) {
        String[] headers = new String[n];
        for (int i = 0; i < n; i++) {
            headers[i] = "X-H" + i + ": v";
        }
        return headers;
    }
}
