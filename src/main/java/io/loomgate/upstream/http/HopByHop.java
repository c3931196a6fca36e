package io.loomgate.upstream.http;

import io.loomgate.http.FieldNames;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Headers that belong to one connection, not to the message (RFC 9110 section 7.6.1), and so are
 * never forwarded; also those the JDK's {@code HttpClient} sets itself and refuses from callers.
 */
final class HopByHop {

    private static final FieldNames ALWAYS = FieldNames.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "trailers", "transfer-encoding", "upgrade");
    private static final FieldNames CLIENT_SETS = FieldNames.of("content-length", "expect", "host");

    private HopByHop() {
    }

    /** True for a header that must not be forwarded, in any direction (its name in any case). */
    static boolean isHopByHop(String name) {
        return ALWAYS.contains(name);
    }

    /** True for a header loomgate may not set on an outgoing request (its name in any case). */
    static boolean notForwardable(String name) {
        return ALWAYS.contains(name) || CLIENT_SETS.contains(name);
    }

    /**
     * The extra hop-by-hop headers one message names in its {@code Connection} header (lower case),
     * or an empty set, without a copy, when it has none.
     */
    static Set<String> named(List<String> connection) {
        if (connection == null || connection.isEmpty()) {
            return Set.of();
        }
        Set<String> names = new HashSet<>();
        for (String v : connection) {
            for (String token : v.split(",")) {
                names.add(token.trim().toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }
}
