package io.loomgate.http;

import java.net.URI;

/**
 * The decoded path and query of a request, after refusing the tricks a path can play: dot segments
 * ({@code ..}, {@code %2e%2e}), empty segments ({@code //}), encoded slashes, path parameters
 * ({@code ;}), control characters and raw non-ASCII. loomgate routes exact paths only, so there is
 * nothing such a path could legitimately mean here.
 *
 * <p>Absolute-form targets ({@code GET http://host/block}) are accepted as RFC 9112 requires; only
 * their path and query are used.
 */
public record RequestTarget(String path, QueryParams query) {

    /** Longest accepted target (path plus query), in characters; longer ones get 414. */
    public static final int MAX_LENGTH = 8 * 1024;

    public static RequestTarget of(URI uri) {
        String rawPath = uri.getRawPath();
        String rawQuery = uri.getRawQuery();
        int length = (rawPath == null ? 0 : rawPath.length()) + (rawQuery == null ? 0 : rawQuery.length());
        if (length > MAX_LENGTH) {
            throw new HttpError(414, "uri_too_long", "the request target is longer than " + MAX_LENGTH + " characters");
        }
        if (uri.getScheme() == null && uri.getRawAuthority() != null) {
            throw badPath("a path must not start with '//'");
        }
        if (uri.getRawFragment() != null) {
            throw badPath("a request target must not carry a '#' fragment");
        }
        if (rawPath == null || rawPath.isEmpty()) {
            rawPath = "/";
        }
        return new RequestTarget(decodePath(rawPath), QueryParams.parse(rawQuery));
    }

    private static String decodePath(String rawPath) {
        if (rawPath.charAt(0) != '/') {
            throw badPath("a path must start with '/'");
        }
        if (rawPath.indexOf(';') >= 0) {
            throw badPath("path parameters (';') are not accepted");
        }
        int segmentStart = 1;
        StringBuilder decoded = new StringBuilder(rawPath.length());
        while (segmentStart <= rawPath.length()) {
            int end = rawPath.indexOf('/', segmentStart);
            if (end < 0) {
                end = rawPath.length();
            }
            String raw = rawPath.substring(segmentStart, end);
            String segment = PercentDecoder.decode(raw, false, "path");
            boolean last = end == rawPath.length();
            if (segment.isEmpty() && !last) {
                throw badPath("empty path segments ('//') are not accepted");
            }
            if (segment.equals(".") || segment.equals("..")) {
                throw badPath("dot segments ('.', '..') are not accepted");
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
                    throw badPath("encoded slashes, backslashes and control characters are not accepted");
                }
            }
            decoded.append('/').append(segment);
            segmentStart = end + 1;
        }
        return decoded.toString();
    }

    private static HttpError badPath(String why) {
        return HttpError.badRequest("bad_path", why);
    }
}
