package io.loomgate.client;

import io.loomgate.http.Headers;
import io.loomgate.http1.FieldLines;
import io.loomgate.http1.HeadLimits;
import io.loomgate.http1.Http1Exception;
import io.loomgate.http1.StartLines;
import java.io.IOException;

/**
 * Reads an upstream's response head with the codec the server reads requests with
 * ({@link io.loomgate.http1}): a status line of exactly {@code HTTP/1.x SP 3DIGIT [SP reason]}
 * with a status from 100 to 599, strict field lines, and everything within the answer's
 * {@link HeadLimits}. Interim answers are read and passed on ({@code 102}, {@code 103}: to the
 * request's {@link io.loomgate.http.Interim}) or dropped ({@code 100}: loomgate answers its own
 * client's {@code Expect}); a {@code 101} is refused unless the request asked to switch protocols.
 * Anything else is a {@link MalformedResponse}.
 */
public final class HeadReader {

    private HeadReader() {
    }

    /** The final head: interim ones are read and dropped. */
    public static ResponseHead read(Http1Connection c, HeadLimits limits) throws IOException {
        return read(c, limits, false, io.loomgate.http.Interim.NONE);
    }

    /** With {@code upgrade}, a {@code 101} is the final head: the request asked for it. */
    public static ResponseHead read(Http1Connection c, HeadLimits limits, boolean upgrade, io.loomgate.http.Interim interim)
            throws IOException {
        try {
            while (true) {
                StartLines.StatusLine status = StartLines.status(c.readLine());
                Headers.Builder fields = Headers.builder();
                FieldLines.read(c.input(), limits, fields::addIfWellFormed);
                if (status.status() >= 200 || (status.status() == 101 && upgrade)) {
                    return new ResponseHead(status.status(), status.http11(), fields.build());
                }
                if (status.status() == 101) {
                    throw new MalformedResponse("101 Switching Protocols, though loomgate never asks for an upgrade");
                }
                limits.interim();
                if (status.status() > 101) {
                    interim.send(status.status(), fields.build());
                }
            }
        } catch (Http1Exception e) {
            throw new MalformedResponse(e.getMessage());
        }
    }
}
