package io.loomgate.edge.compress;

import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.util.List;

/** What {@link Compression} makes of an answer: the same, with {@code Vary: Accept-Encoding}, gzipped when it may be. */
public final class Compressed {

    private Compressed() {
    }

    public static Response answer(Compression c, String method, List<String> acceptEncoding, Response answer) {
        boolean streamed = answer.stream() != null;
        Headers fields = streamed ? answer.stream().headers() : answer.headers();
        String type = streamed ? fields.first("Content-Type") : answer.contentType();
        if (!c.covers(type)) {
            return answer;
        }
        long length = streamed ? answer.stream().length() : answer.body().length;
        Response out = c.applies(method, answer.status(), type, length, fields) && Compression.accepted(acceptEncoding)
                ? Gzip.of(answer) : answer;
        return vary(out);
    }

    /** {@code Vary} with {@code Accept-Encoding} among its names, once. */
    private static Response vary(Response r) {
        List<String> now = r.values("Vary");
        for (String v : now) {
            for (String name : v.split(",")) {
                if (name.strip().equalsIgnoreCase("Accept-Encoding") || name.strip().equals("*")) {
                    return r;
                }
            }
        }
        if (r.stream() != null && !r.stream().headers().all("Vary").isEmpty()) {
            return r.withStreamedHeaders(h -> h.with("Vary", String.join(", ", h.all("Vary")) + ", Accept-Encoding"));
        }
        return r.withHeader("Vary", now.isEmpty() ? "Accept-Encoding" : String.join(", ", now) + ", Accept-Encoding");
    }
}
