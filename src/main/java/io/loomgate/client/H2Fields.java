package io.loomgate.client;

import io.loomgate.http.FieldText;
import io.loomgate.http.Headers;
import io.loomgate.http2.hpack.HeaderField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A request's fields as an HTTP/2 client sends them (RFC 9113 section 8.3.1), and an answer's as it
 * must come (section 8.3.2), checked as strictly as the HTTP/1.1 client checks a head: a field HTTP/2
 * forbids, a pseudo-header out of place, a name with an upper-case letter, or a {@code :status} that is
 * not three digits is a {@link MalformedResponse}.
 */
final class H2Fields {

    /** HTTP/1.1's connection-specific fields, which HTTP/2 forbids (and Host, which is :authority). */
    private static final Set<String> CONNECTION_SPECIFIC = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "upgrade");

    private H2Fields() {
    }

    /** The request's pseudo-headers, its fields in lower case without the forbidden ones, its length, and {@code te: trailers}. */
    static List<HeaderField> request(OutgoingRequest r) {
        List<HeaderField> fields = new ArrayList<>();
        fields.add(new HeaderField(":method", r.method()));
        fields.add(new HeaderField(":scheme", r.origin().tls().isPresent() ? "https" : "http"));
        fields.add(new HeaderField(":authority", r.host().orElse(r.origin().authority())));
        fields.add(new HeaderField(":path", r.target()));
        r.headers().forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!CONNECTION_SPECIFIC.contains(lower) && !lower.equals("host") && !lower.equals("te")) {
                fields.add(new HeaderField(lower, value));
            }
        });
        if (r.body() != null && r.length() >= 0) {
            fields.add(new HeaderField("content-length", String.valueOf(r.length())));
        } else if (r.body() == null && OutgoingRequest.needsLength(r.method())) {
            fields.add(new HeaderField("content-length", "0"));
        }
        fields.add(new HeaderField("te", "trailers"));   // this side reads trailers (gRPC's upstreams want it said)
        return fields;
    }

    /** An answer's head: {@code :status} first and once, then regular fields only. */
    static ResponseHead response(List<HeaderField> fields) throws MalformedResponse {
        int status = -1;
        Headers.Builder headers = Headers.builder();
        boolean regular = false;
        for (HeaderField f : fields) {
            if (f.name().startsWith(":")) {
                if (!f.name().equals(":status") || status >= 0 || regular) {
                    throw new MalformedResponse("the HTTP/2 pseudo-header " + shown(f.name()) + " out of place in an answer");
                }
                String v = f.value();
                if (v.length() != 3 || !v.chars().allMatch(c -> c >= '0' && c <= '9') || v.charAt(0) == '0') {
                    throw new MalformedResponse("an HTTP/2 :status of " + shown(v));
                }
                status = Integer.parseInt(v);
            } else {
                regular = true;
                headers.add(checked(f), f.value());
            }
        }
        if (status < 0) {
            throw new MalformedResponse("an HTTP/2 answer without :status");
        }
        return new ResponseHead(status, true, headers.build());
    }

    /** Trailer fields: regular fields only. */
    static Headers trailers(List<HeaderField> fields) throws MalformedResponse {
        Headers.Builder b = Headers.builder();
        for (HeaderField f : fields) {
            if (f.name().startsWith(":")) {
                throw new MalformedResponse("a pseudo-header in HTTP/2 trailers");
            }
            b.add(checked(f), f.value());
        }
        return b.build();
    }

    /** The answer's {@code content-length}: one number, or -1 when it has none. */
    static long declaredLength(ResponseHead head) throws MalformedResponse {
        List<String> all = head.all("content-length");
        if (all.isEmpty()) {
            return -1;
        }
        String v = all.getFirst();
        if (all.size() > 1 || v.isEmpty() || v.length() > 18 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new MalformedResponse("an HTTP/2 content-length that is not one number");
        }
        return Long.parseLong(v);
    }

    /**
     * How the answer's body is framed, for the proxy: empty for a HEAD, a 204 or a 304 (a HEAD keeps
     * the length a GET would have), or when the HEADERS ended the stream; else its length, or unknown.
     */
    static Framing framing(String method, ResponseHead head, boolean endStream, long declared) {
        int status = head.status();
        if (method.equals("HEAD")) {
            return new Framing(Framing.Kind.EMPTY, declared, true);
        }
        if (status == 204 || status == 304 || endStream) {
            return new Framing(Framing.Kind.EMPTY, 0, true);
        }
        return declared >= 0 ? new Framing(Framing.Kind.LENGTH, declared, true) : new Framing(Framing.Kind.CHUNKED, -1, true);
    }

    private static String checked(HeaderField f) throws MalformedResponse {
        String name = f.name();
        if (!FieldText.isToken(name) || !name.equals(name.toLowerCase(Locale.ROOT)) || CONNECTION_SPECIFIC.contains(name)) {
            throw new MalformedResponse("the field " + shown(name) + " in an HTTP/2 answer");
        }
        if (!FieldText.isValue(f.value())) {
            throw new MalformedResponse("a value of " + name + " that HTTP forbids in an HTTP/2 answer");
        }
        return name;
    }

    private static String shown(String text) {
        return FieldText.printable(text);
    }
}
