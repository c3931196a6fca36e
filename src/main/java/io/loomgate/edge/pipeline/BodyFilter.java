package io.loomgate.edge.pipeline;

import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Makes the request handlers see. A route that reads its body (a proxy, a composed {@code POST})
 * gets it as it arrives; for any other the body is read and thrown away here, so the connection can
 * be reused, up to {@link #MAX_DISCARDED_BYTES}: a larger one is refused with 413 without being read,
 * and one that ends early or is badly framed with 400, and the connection then closes.
 */
final class BodyFilter implements Filter {

    /** Bodies up to this size are read and discarded; larger ones get 413 and the connection closes. */
    static final long MAX_DISCARDED_BYTES = 1024 * 1024;

    @Override
    public String name() {
        return "body";
    }

    @Override
    public Response onRequest(Visit v) {
        if (v.matched().readsBody()) {
            v.body(v.exchange().body());
        } else {
            discard(v);
        }
        return null;
    }

    private static void discard(Visit v) {
        String length = v.headers().first("Content-Length");
        if (length == null && !v.headers().contains("Transfer-Encoding")) {
            return;
        }
        if (length != null && (length.strip().length() > 18 || Long.parseLong(length.strip()) > MAX_DISCARDED_BYTES)) {
            throw tooLarge();
        }
        byte[] scratch = new byte[8192];
        long total = 0;
        try (InputStream in = v.exchange().body()) {
            for (int n; (n = in.read(scratch)) >= 0; ) {
                total += n;
                // A chunk that declares more than the limit is refused now, not after waiting for it.
                if (total > MAX_DISCARDED_BYTES || v.exchange().declaredBodyLeft() > MAX_DISCARDED_BYTES - total) {
                    throw tooLarge();
                }
            }
        } catch (IOException cutShort) {
            // The client's fault (a body shorter than announced, a broken chunk), not the server's.
            throw new HttpError(400, "bad_body", "the request body ended early or was not validly framed",
                    Map.of(), Map.of("Connection", "close"));
        }
    }

    private static HttpError tooLarge() {
        return new HttpError(413, "payload_too_large",
                "request bodies are discarded up to " + MAX_DISCARDED_BYTES + " bytes; this one is larger",
                Map.of(), Map.of("Connection", "close"));
    }
}
