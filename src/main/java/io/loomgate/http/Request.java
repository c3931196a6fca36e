package io.loomgate.http;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * A request as handlers see it: validated, decoded, and tagged with an id.
 *
 * @param id           the request id, also sent back as {@code X-Request-Id} and used as error id
 * @param method       the method as sent ({@code HEAD} is served by the {@code GET} handler)
 * @param path         the decoded path
 * @param query        the decoded query parameters
 * @param params       the path's parameters, decoded ({@code id=7} for {@code /users/{id}}); empty for most routes
 * @param headers      the request headers, read-only
 * @param arrivalNanos {@link System#nanoTime()} when the server saw the first byte of the request
 * @param target       the request target as sent, still encoded (what a proxy forwards)
 * @param remote       the client's address
 * @param body         the request body, for routes that read it; empty for the others
 * @param caller       who is calling, as the route's authentication found out; anonymous by default
 * @param clientId     the client's own {@code X-Request-Id}, kept beside {@code id} for correlation when it
 *                     was not taken as the id (only a trusted proxy's is); empty when there was none
 * @param ledger       what the request's work adds up to (upstream time, its trace), for the access log
 * @param interim      where an interim answer (a proxied {@code 103 Early Hints}) goes ahead of the final one
 */
public record Request(String id, String method, String path, QueryParams query, Map<String, String> params,
                      Headers headers, long arrivalNanos, URI target, InetSocketAddress remote, InputStream body,
                      Caller caller, String clientId, RequestLedger ledger, Interim interim) {

    public Request {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(query, "query");
        params = Map.copyOf(params);
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(interim, "interim");
    }

    /**
     * A request loomgate makes itself, read from no client (a tool's, a test's): a {@code GET} of
     * {@code /} with {@code query}, no headers, no body, and a ledger of its own.
     */
    public static Request internal(String id, QueryParams query) {
        return new Request(id, "GET", "/", query, Map.of(), Headers.EMPTY, System.nanoTime(), URI.create("/"), null,
                InputStream.nullInputStream(), Caller.ANONYMOUS, "", new RequestLedger(), Interim.NONE);
    }

    /** The same request, its body read through {@code other} (a count of the bytes forwarded, say). */
    public Request withBody(InputStream other) {
        return new Request(id, method, path, query, params, headers, arrivalNanos, target, remote, other, caller, clientId, ledger, interim);
    }

    /** The same request with other headers, its body read through {@code other} (a body read whole, say). */
    public Request withBody(InputStream other, Headers otherHeaders) {
        return new Request(id, method, path, query, params, otherHeaders, arrivalNanos, target, remote, other, caller, clientId, ledger, interim);
    }

    /** The same request, from {@code who}. */
    public Request by(Caller who) {
        return new Request(id, method, path, query, params, headers, arrivalNanos, target, remote, body, who, clientId, ledger, interim);
    }
}
