package io.loomgate.edge.compress;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Locale;

/**
 * {@code "compress": {"types": ["application/json", "text/*"], "minBytes": 1024}}, at the top of a
 * route file or on a route: answers of those media types ({@code text/*} for any text), of at least
 * {@code minBytes} when their length is known, are gzipped (the JDK's own {@link java.util.zip})
 * for a client whose {@code Accept-Encoding} takes gzip (nginx's {@code gzip}, Caddy's
 * {@code encode}). Never an answer already encoded, one marked {@code no-transform}, a 206, a 204 or
 * a 304, nor the answer to a {@code HEAD}. An answer of those types always says
 * {@code Vary: Accept-Encoding}, so a cache keeps the two forms apart.
 *
 * @param types    media types, lower-case; {@code type/*} for a whole type
 * @param minBytes the smallest answer worth compressing, when its length is known
 */
public record Compression(List<String> types, long minBytes) {

    public static final List<String> DEFAULT_TYPES = List.of("text/*", "application/json", "application/javascript",
            "application/xml", "image/svg+xml");
    public static final long DEFAULT_MIN_BYTES = 1024;

    public Compression {
        types = types.stream().map(t -> t.strip().toLowerCase(Locale.ROOT)).toList();
        if (minBytes < 0) {
            throw new IllegalArgumentException("minBytes must be >= 0: " + minBytes);
        }
    }

    /** True when an answer of {@code contentType} is one of the types. */
    public boolean covers(String contentType) {
        if (contentType == null) {
            return false;
        }
        String media = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        for (String t : types) {
            if (t.endsWith("/*") ? media.startsWith(t.substring(0, t.length() - 1)) : media.equals(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when this answer may be gzipped for this request: the types cover it, it is long enough
     * when its length is known ({@code length < 0}: unknown, streamed), and nothing forbids it.
     */
    public boolean applies(String method, int status, String contentType, long length, Headers answer) {
        if (method.equals("HEAD") || status == 206 || status == 204 || status == 304 || status < 200 || !covers(contentType)) {
            return false;
        }
        if (length >= 0 && length < minBytes) {
            return false;
        }
        if (answer.contains("Content-Encoding") || answer.contains("Content-Range")) {
            return false;
        }
        for (String cc : answer.all("Cache-Control")) {
            if (cc.toLowerCase(Locale.ROOT).contains("no-transform")) {
                return false;
            }
        }
        return true;
    }

    /** True when {@code acceptEncoding} (every value of the client's {@code Accept-Encoding}) takes gzip: named, or {@code *}, with a q above 0. */
    public static boolean accepted(List<String> acceptEncoding) {
        for (String line : acceptEncoding) {
            for (String part : line.split(",")) {
                String[] p = part.strip().split(";");
                String coding = p[0].strip().toLowerCase(Locale.ROOT);
                if (!coding.equals("gzip") && !coding.equals("x-gzip") && !coding.equals("*")) {
                    continue;
                }
                double q = 1;
                for (int i = 1; i < p.length; i++) {
                    String param = p[i].strip().toLowerCase(Locale.ROOT);
                    if (param.startsWith("q=")) {
                        try {
                            q = Double.parseDouble(param.substring(2));
                        } catch (NumberFormatException e) {
                            q = 0;
                        }
                    }
                }
                if (q > 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
