package io.loomgate.upstream.http;

import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.upstream.cache.CachedCalls;
import java.io.IOException;

/**
 * A proxied request answered from the cache: the stored answer, a {@code 304} when the client has it
 * already, or the part a {@code Range} asks for ({@link StoredRanges}).
 */
final class StoredResponses {

    private StoredResponses() {
    }

    /**
     * True when the client's {@code If-None-Match} names {@code etag} (or says {@code *}): the
     * client has the stored answer already, and gets a 304. Weak comparison, as RFC 9110 asks for
     * {@code If-None-Match}.
     */
    static boolean notModified(java.util.List<String> ifNoneMatch, String etag) {
        if (etag == null || ifNoneMatch.isEmpty()) {
            return false;
        }
        String ours = etag.strip().startsWith("W/") ? etag.strip().substring(2) : etag.strip();
        for (String line : ifNoneMatch) {
            for (String tag : line.split(",")) {
                String t = tag.strip();
                if (t.equals("*") || (t.startsWith("W/") ? t.substring(2) : t).equals(ours)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True when the client's {@code If-Modified-Since} is no earlier than the stored answer's
     * {@code Last-Modified}: it has that version (RFC 9110 section 13.1.3; only when the client sent
     * no {@code If-None-Match}, which takes precedence). A date that is not a valid HTTP date is ignored.
     */
    static boolean notModifiedSince(String ifModifiedSince, String lastModified) {
        if (ifModifiedSince == null || lastModified == null) {
            return false;
        }
        java.util.Optional<Long> since = io.loomgate.http.HttpDate.parse(ifModifiedSince.strip());
        java.util.Optional<Long> modified = io.loomgate.http.HttpDate.parse(lastModified.strip());
        return since.isPresent() && modified.isPresent() && modified.get() <= since.get();
    }

    /** A stored answer, as a proxied one: its fields (with its {@code Age}) and {@code Cache-Status}, its body. */
    static Response of(String upstream, CachedCalls.Served hit, Request request) {
        Headers headers = hit.headers().plus("Cache-Status", "loomgate/" + upstream + "; " + hit.cacheStatus());
        java.util.List<String> ifNoneMatch = request.headers().all("If-None-Match");
        boolean unchanged = ifNoneMatch.isEmpty() ? notModifiedSince(request.headers().first("If-Modified-Since"), hit.headers().first("Last-Modified"))
                : notModified(ifNoneMatch, hit.headers().first("ETag"));
        byte[] body = unchanged ? new byte[0] : hit.body();
        int status = unchanged ? 304 : hit.status();
        java.util.Optional<StoredRanges.Part> part = status == 200 && request.method().equals("GET")
                ? StoredRanges.asked(request.headers(), hit.headers(), body.length) : java.util.Optional.empty();
        if (part.isPresent()) {   // a Range of a stored whole answer: its part (206), or 416 past its end
            StoredRanges.Part p = part.get();
            headers = headers.plus("Content-Range", p.contentRange());
            status = p.satisfiable() ? 206 : 416;
            body = p.satisfiable() ? java.util.Arrays.copyOfRange(body, (int) p.from(), (int) p.to() + 1) : new byte[0];
        }
        byte[] sent = body;
        return Response.streamed(status, new Response.Stream(headers, sent.length, new Response.Writer() {
            @Override
            public void writeTo(java.io.OutputStream out) throws IOException {
                out.write(sent);
            }

            @Override
            public void discard() {
                // nothing held open
            }
        }));
    }
}
