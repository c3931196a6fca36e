package io.loomgate.edge.pipeline;

import io.loomgate.edge.compress.Compression;
import io.loomgate.edge.compress.Compressed;
import io.loomgate.http.Response;

/**
 * The route's {@code "compress"} ({@link Compression}), on the way out: an answer of its types says
 * {@code Vary: Accept-Encoding}, and is gzipped when the client takes gzip and nothing forbids it.
 */
final class CompressFilter implements Filter {

    @Override
    public String name() {
        return "compress";
    }

    @Override
    public Response onRequest(Visit v) {
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        if (v.route().isEmpty() || v.edge().compress().isEmpty()) {
            return answer;
        }
        return Compressed.answer(v.edge().compress().get(), v.method(), v.headers().all("Accept-Encoding"), answer);
    }
}
