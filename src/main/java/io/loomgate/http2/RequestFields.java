package io.loomgate.http2;

import io.loomgate.http.FieldText;
import io.loomgate.http2.hpack.HeaderField;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A request's header block as HTTP/2 requires it (RFC 9113 section 8.2 and 8.3): its pseudo-header
 * fields, each once and before every other field; {@code :method}, {@code :scheme} and a
 * {@code :path} that is {@code *} or starts with {@code /} (CONNECT: {@code :authority} alone);
 * field names lower-case tokens; values with no control character and no space at either end; no
 * connection-specific field, and {@code te} only as {@code trailers}. Anything else makes the
 * request malformed: a stream error of type PROTOCOL_ERROR, the connection goes on.
 *
 * @param authority {@code :authority}, or null when absent (then a {@code host} field names it)
 * @param fields    the regular fields, in order
 */
public record RequestFields(String method, String scheme, String authority, String path, List<HeaderField> fields) {

    private static final Set<String> CONNECTION_SPECIFIC = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade");

    public RequestFields {
        fields = List.copyOf(fields);
    }

    public static RequestFields of(List<HeaderField> block, int streamId) throws Http2Exception {
        String method = null;
        String scheme = null;
        String authority = null;
        String path = null;
        boolean regularSeen = false;
        List<HeaderField> fields = new ArrayList<>(block.size());
        for (HeaderField f : block) {
            String name = f.name();
            if (!name.isEmpty() && name.charAt(0) == ':') {
                if (regularSeen) {
                    throw malformed(streamId, "the pseudo-header " + name + " after a regular field");
                }
                switch (name) {
                    case ":method" -> method = once(method, f, streamId);
                    case ":scheme" -> scheme = once(scheme, f, streamId);
                    case ":authority" -> authority = once(authority, f, streamId);
                    case ":path" -> path = once(path, f, streamId);
                    default -> throw malformed(streamId, "the pseudo-header " + FieldText.printable(name) + ", which no request has");
                }
                continue;
            }
            regularSeen = true;
            checkName(name, streamId);
            checkValue(f, streamId);
            if (CONNECTION_SPECIFIC.contains(name)) {
                throw malformed(streamId, "the connection-specific field " + name);
            }
            if (name.equals("te") && !f.value().equals("trailers")) {
                throw malformed(streamId, "te other than trailers");
            }
            fields.add(f);
        }
        if (method == null) {
            throw malformed(streamId, "no :method");
        }
        if (method.equals("CONNECT")) {
            if (authority == null || scheme != null || path != null) {
                throw malformed(streamId, "a CONNECT needs :authority alone");
            }
        } else if (scheme == null || path == null || path.isEmpty()) {
            throw malformed(streamId, "no " + (scheme == null ? ":scheme" : ":path"));
        } else if (!(path.startsWith("/") || (path.equals("*") && method.equals("OPTIONS")))) {
            throw malformed(streamId, "a :path that is not absolute");
        }
        return new RequestFields(method, scheme, authority, path, fields);
    }

    private static String once(String seen, HeaderField f, int streamId) throws Http2Exception {
        if (seen != null) {
            throw malformed(streamId, "a second " + f.name());
        }
        checkValue(f, streamId);
        return f.value();
    }

    private static void checkName(String name, int streamId) throws Http2Exception {
        if (!FieldText.isToken(name)) {
            throw malformed(streamId, "a field name that is not a token: " + FieldText.printable(name));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                throw malformed(streamId, "an upper-case field name: " + FieldText.printable(name));
            }
        }
    }

    private static void checkValue(HeaderField f, int streamId) throws Http2Exception {
        String v = f.value();
        boolean edgeSpace = !v.isEmpty() && (isSpace(v.charAt(0)) || isSpace(v.charAt(v.length() - 1)));
        if (!FieldText.isValue(v) || edgeSpace) {
            throw malformed(streamId, "a value of " + FieldText.printable(f.name()) + " with a control character or an edge space");
        }
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private static Http2Exception malformed(int streamId, String why) {
        return Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, streamId, "a malformed request: " + why);
    }
}
