package io.loomgate.module;

import io.loomgate.http.FieldText;
import java.util.Locale;
import java.util.Set;

/**
 * Header names in a route file: each must be an HTTP token, and a header loomgate fills (from a
 * token's claim, an API key's name, a composed call's template) must not be one that frames the
 * message or belongs to the connection. A claim that filled {@code Transfer-Encoding} or
 * {@code Content-Length} would let a token's holder choose how the upstream splits the stream into
 * requests.
 */
public final class HeaderNames {

    private static final Set<String> NEVER_FILLED = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "te", "trailer", "trailers", "upgrade", "expect");

    /** What an error says is refused. */
    public static final String REFUSED = "must be a header name that neither frames the message nor belongs to the connection"
            + " (not Host, Content-Length, Transfer-Encoding, Connection, TE, Upgrade, Trailer, Keep-Alive, Expect or Proxy-*)";

    private HeaderNames() {
    }

    /** An HTTP token (RFC 9110 section 5.6.2). */
    public static boolean isName(String s) {
        return FieldText.isToken(s);
    }

    /** True when loomgate may fill this header on a request it sends upstream. */
    public static boolean isFillable(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        return isName(s) && !NEVER_FILLED.contains(lower) && !lower.startsWith("proxy-");
    }
}
