package io.loomgate.core.port;

import io.loomgate.http.Headers;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The shape of one call when a route gives it one (a compose call): the method, the path and query
 * below the upstream's own URL, extra headers, a body, and a timeout below the request's. An
 * upstream that has no use for a shape (a simulated one) ignores it.
 *
 * @param method      {@code GET} unless the route says otherwise
 * @param target      the rendered path and query to append to the upstream's URL ({@code /users/7}); empty for its URL as it is
 * @param headers     name and value pairs to send, already checked
 * @param body        the body to send, or null for none
 * @param contentType the body's media type, when it has one
 * @param timeout     a cap on this call below the request's deadline
 * @param idempotent  true when the route marks it safe to send twice whatever its method (a PUT, say);
 *                    GET, HEAD and OPTIONS are anyway, a call with a body never
 * @param extensions  what the route asks of the upstream's own layers for this call (its own cache), unread here
 */
public record Call(String method, String target, Headers headers, byte[] body, Optional<String> contentType,
                   Optional<Duration> timeout, boolean idempotent, Extensions extensions) {

    /** A plain call: {@code GET} the upstream's own URL. */
    public static final Call PLAIN = new Call("GET", "", Headers.EMPTY, null, Optional.empty(), Optional.empty(), false,
            Extensions.NONE);

    public Call {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(extensions, "extensions");
    }
}
