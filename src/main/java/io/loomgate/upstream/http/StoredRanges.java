package io.loomgate.upstream.http;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpDate;
import java.util.Optional;

/**
 * A {@code Range} request served from a stored complete {@code 200} (RFC 9110 section 14): one byte
 * range is a {@code 206} with its {@code Content-Range}; several, or one that cannot be read, are
 * the whole {@code 200} (a server may ignore a {@code Range}); one past the end is a {@code 416}.
 * {@code If-Range} is respected: the range is served only when it names the stored answer by its
 * strong {@code ETag} or its exact {@code Last-Modified}, else the whole answer.
 */
final class StoredRanges {

    /** What to send of a stored body of {@code length} octets: {@code from} to {@code to} inclusive, or none (416). */
    record Part(long from, long to, long length) {
        boolean satisfiable() {
            return from <= to;
        }

        String contentRange() {
            return satisfiable() ? "bytes " + from + "-" + to + "/" + length : "bytes */" + length;
        }
    }

    private StoredRanges() {
    }

    /**
     * The part of a stored 200 ({@code stored}: its fields, {@code length}: its body's) the request
     * ({@code asked}: its fields) asks for; empty when it gets the whole answer.
     */
    static Optional<Part> asked(Headers asked, Headers stored, long length) {
        String range = asked.first("Range");
        if (range == null || asked.all("Range").size() > 1 || !ifRangeHolds(asked.first("If-Range"), stored)) {
            return Optional.empty();
        }
        String r = range.strip();
        if (!r.startsWith("bytes=") || r.indexOf(',') >= 0) {
            return Optional.empty();   // another unit, or several ranges: the whole answer
        }
        String spec = r.substring(6).strip();
        int dash = spec.indexOf('-');
        if (dash < 0 || !spec.substring(0, dash).matches("\\d{0,18}") || !spec.substring(dash + 1).matches("\\d{0,18}")
                || dash == 0 && dash == spec.length() - 1) {
            return Optional.empty();   // not a byte range this reads: ignored
        }
        String first = spec.substring(0, dash);
        String last = spec.substring(dash + 1);
        if (first.isEmpty()) {   // the last N octets
            long n = Long.parseLong(last);
            return Optional.of(n == 0 ? new Part(1, 0, length) : new Part(Math.max(0, length - n), length - 1, length));
        }
        long from = Long.parseLong(first);
        long to = last.isEmpty() ? length - 1 : Math.min(Long.parseLong(last), length - 1);
        if (!last.isEmpty() && Long.parseLong(last) < from) {
            return Optional.empty();   // an invalid range: ignored
        }
        return Optional.of(from >= length ? new Part(1, 0, length) : new Part(from, to, length));
    }

    /** True when there is no {@code If-Range}, or it names the stored answer: a strong ETag equal to its own, or its exact Last-Modified. */
    private static boolean ifRangeHolds(String ifRange, Headers stored) {
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.strip();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            String etag = stored.first("ETag");
            return !v.startsWith("W/") && etag != null && !etag.strip().startsWith("W/") && etag.strip().equals(v);
        }
        String modified = stored.first("Last-Modified");
        Optional<Long> at = HttpDate.parse(v);
        return at.isPresent() && modified != null && at.equals(HttpDate.parse(modified.strip()));
    }
}
