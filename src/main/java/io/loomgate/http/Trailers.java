package io.loomgate.http;

import java.io.IOException;

/**
 * An exchange that can end its answer with trailer fields, after the body: HTTP/2's trailing
 * HEADERS frame, which gRPC's {@code grpc-status} travels in. The JDK's HTTP server
 * API has no trailers, so loomgate's own exchanges implement this beside it (over HTTP/2 both
 * loomgate's {@link Exchange} and the API's exchange); a route that does not use it never sees it:
 * {@code if (exchange instanceof Trailers t) t.trailers(fields);}
 */
public interface Trailers {

    /**
     * Ends the answer: what the body holds goes out, then {@code fields} as its trailers, which end
     * the stream. The head must have been sent for a body of unknown length (0, as a gRPC answer's
     * is), and the body not closed; no pseudo-header and no field HTTP/2 forbids may be among them.
     *
     * @throws IOException when the answer cannot take trailers now, or the client went away
     */
    void trailers(Headers fields) throws IOException;
}
