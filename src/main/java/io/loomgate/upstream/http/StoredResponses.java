package io.loomgate.upstream.http;

import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;
import io.loomgate.upstream.cache.CachedCalls;
import java.io.IOException;

/** A proxied request answered from the cache: the stored answer, or a {@code 304} when the client has it already. */
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
        return Response.streamed(unchanged ? 304 : hit.status(), new Response.Stream(headers, body.length, new Response.Writer() {
            @Override
            public void writeTo(java.io.OutputStream out) throws IOException {
                out.write(body);
            }

            @Override
            public void discard() {
                // nothing held open
            }
        }));
    }
}
