package io.loomgate.edge.auth;

import io.loomgate.http.Caller;
import io.loomgate.http.FieldText;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may call a route: anyone, the holder of an API key, or the bearer of a valid JWT. A caller
 * who is not is refused with 401 (and {@code WWW-Authenticate}), or 403 for a valid token that
 * lacks a required claim; the request never reaches admission, let alone an upstream.
 */
public sealed interface Auth {

    /** Who is calling, as far as the route cares. */
    Caller authenticate(Headers headers);

    /** {@code "auth": "none"}, and every route that says nothing. */
    AuthModule NONE = new AuthModule() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public boolean bare() {
            return true;
        }

        @Override
        public boolean configurable() {
            return false;
        }

        @Override
        public AuthSpec read(Optional<Fields> settings) {
            return new None();
        }
    };

    /** {@code "auth": "apiKey"}, or with settings {@code {"apiKey": {"nameHeader": "X-Consumer"}}}. */
    AuthModule API_KEY = new AuthModule() {
        @Override
        public String name() {
            return "apiKey";
        }

        @Override
        public boolean bare() {
            return true;
        }

        @Override
        public boolean configurable() {
            return true;
        }

        @Override
        public AuthSpec read(Optional<Fields> settings) throws RouteFileException {
            Optional<String> header = Optional.empty();
            if (settings.isPresent()) {
                Fields k = settings.get();
                header = k.optionalString("nameHeader");
                if (header.isPresent() && !HeaderNames.isFillable(header.get())) {
                    throw k.bad("nameHeader", HeaderNames.REFUSED, header.get());
                }
                k.finish("apiKey auth", List.of("nameHeader"));
            }
            return new ApiKeySpec(header);
        }
    };

    /** The settings of {@code "auth": "apiKey"}: the header upstreams learn the key's name in, if any. */
    record ApiKeySpec(Optional<String> nameHeader) implements AuthSpec {
        @Override
        public boolean checksCaller() {
            return true;
        }

        @Override
        public Optional<String> limitKey() {
            return Optional.of("apiKey");
        }

        @Override
        public Auth build(Optional<ApiKeys> keys) throws EdgeException {
            return new ApiKey(keys.orElseThrow(() -> new EdgeException(
                    "requires an API key (\"auth\": \"apiKey\"), but no --api-keys file was given")), nameHeader);
        }
    }

    /** {@code "auth": "none"}, and every route that says nothing. */
    record None() implements Auth, AuthSpec {
        @Override
        public boolean checksCaller() {
            return false;
        }

        @Override
        public Auth build(Optional<ApiKeys> keys) {
            return this;
        }

        @Override
        public Caller authenticate(Headers headers) {
            return Caller.ANONYMOUS;
        }
    }

    /**
     * {@code "auth": "apiKey"}: a key from {@code --api-keys}, sent as {@code X-Api-Key} or
     * {@code Authorization: Bearer}. The key itself never reaches an upstream; its name does, in
     * {@code nameHeader} when the route file names one, and in the access log.
     */
    record ApiKey(ApiKeys keys, Optional<String> nameHeader) implements Auth {
        @Override
        public Caller authenticate(Headers headers) {
            List<String> sent = headers.all("X-Api-Key");
            String bearer = bearer(headers);
            if (sent.size() > 1) {
                throw unauthorized("send one X-Api-Key header, not " + sent.size(), "invalid_request");
            }
            String key = !sent.isEmpty() ? sent.getFirst().strip() : bearer;
            if (key == null || key.isEmpty()) {
                throw unauthorized("this route needs an API key: send it as X-Api-Key or Authorization: Bearer", null);
            }
            String name = keys.nameOf(key).orElseThrow(() -> unauthorized("the API key is not valid", "invalid_token"));
            Headers upstream = nameHeader.map(h -> Headers.of(h, name)).orElse(Headers.EMPTY);
            return new Caller(Optional.of(name), Map.of(), upstream,
                    sent.isEmpty() ? Set.of("authorization") : bearer != null ? Set.of("x-api-key", "authorization") : Set.of("x-api-key"));
        }
    }

    /**
     * {@code "auth": {"jwt": {...}}}: a token in {@code Authorization: Bearer}, verified by
     * {@link JwtVerifier}. Its {@code sub} names the caller; {@code forwardClaims} (claim to header)
     * tell upstreams more, and templates may use any claim as {@code {jwt.NAME}}. Those headers are
     * loomgate's alone: a client's own header of such a name never reaches an upstream, even when
     * the token lacks the claim. The token itself is passed on as it came, for upstreams that check
     * it again.
     */
    record Jwt(JwtVerifier verifier, Map<String, String> forwardClaims) implements Auth {
        public Jwt {
            forwardClaims = Map.copyOf(forwardClaims);
        }

        @Override
        public Caller authenticate(Headers headers) {
            String token = bearer(headers);
            if (token == null || token.isEmpty()) {
                throw unauthorized("this route needs a token: send it as Authorization: Bearer", null);
            }
            Map<String, Object> claims;
            try {
                claims = verifier.verify(token);
            } catch (JwtVerifier.Rejected r) {
                throw r.status() == 403
                        ? new HttpError(403, "forbidden", r.getMessage(), Map.of(), Map.of("WWW-Authenticate",
                                challenge("insufficient_scope", r.getMessage())))
                        : unauthorized(r.getMessage(), "invalid_token");
            }
            Headers.Builder upstream = Headers.builder();
            Set<String> claimHeaders = new HashSet<>();
            for (Map.Entry<String, String> f : forwardClaims.entrySet()) {
                claimHeaders.add(f.getValue().toLowerCase(Locale.ROOT));
                Object v = claims.get(f.getKey());
                if (v != null) {
                    String text = v instanceof String s ? s : new JsonWriter(64).tree(v).toString();
                    if (text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                        throw unauthorized("the token's " + f.getKey() + " claim cannot be sent as a header", "invalid_token");
                    }
                    upstream.add(f.getValue(), FieldText.wire(text));
                }
            }
            Optional<String> sub = claims.get("sub") instanceof String s ? Optional.of(s) : Optional.empty();
            return new Caller(sub, claims, upstream.build(), claimHeaders);
        }
    }

    /**
     * The token of {@code Authorization: Bearer TOKEN}, or null when there is none. Two
     * {@code Authorization} headers are refused: an upstream that reads the other one would see a
     * credential loomgate never checked.
     */
    private static String bearer(Headers headers) {
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

    private static HttpError unauthorized(String why, String error) {
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
