package io.loomgate.edge.auth;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.util.List;
import java.util.Map;

/** What the methods share: reading a bearer token, and refusing in RFC 6750's words. */
final class Credentials {

    private Credentials() {
    }

    /**
     * The token of {@code Authorization: Bearer TOKEN}, or null when there is none. Two
     * {@code Authorization} headers are refused: an upstream that reads the other one would see a
     * credential loomgate never checked.
     */
    static String bearer(Headers headers) {
        List<String> values = headers.all("Authorization");
        if (values.size() > 1) {
            throw unauthorized("send one Authorization header, not " + values.size(), "invalid_request");
        }
        String value = values.isEmpty() ? null : values.getFirst();
        if (value == null || value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return value.substring(7).strip();
    }

    static HttpError unauthorized(String why, String error) {
        return new HttpError(401, "unauthorized", why, Map.of(), Map.of("WWW-Authenticate", challenge(error, why)));
    }

    /**
     * {@code Bearer realm="loomgate"}, with RFC 6750's error and description when there is one. The
     * description is loomgate's own words, never the token's text; it is still cut to printable
     * ASCII without quotes or backslashes, so nothing can end the quoted string or the header line.
     */
    static String challenge(String error, String why) {
        if (error == null) {
            return "Bearer realm=\"loomgate\"";
        }
        StringBuilder description = new StringBuilder(why.length());
        why.chars().forEach(c -> description.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char) c : '\''));
        return "Bearer realm=\"loomgate\", error=\"" + error + "\", error_description=\"" + description + "\"";
    }
}
