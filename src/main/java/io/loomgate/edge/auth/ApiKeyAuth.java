package io.loomgate.edge.auth;

import io.loomgate.http.Caller;
import io.loomgate.http.Headers;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code "auth": "apiKey"}: a key from {@code --api-keys}, sent as {@code X-Api-Key} or
 * {@code Authorization: Bearer}. The key itself never reaches an upstream; its name does, in
 * {@code nameHeader} when the route file names one, and in the access log.
 */
public final class ApiKeyAuth {

    private ApiKeyAuth() {
    }

    /** {@code "auth": "apiKey"}, or with settings {@code {"apiKey": {"nameHeader": "X-Consumer"}}}. */
    public static final AuthModule MODULE = new AuthModule() {
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
        public Optional<LimitKey> limitKey() {
            return Optional.of(new LimitKey("apiKey", "one (\"auth\": \"apiKey\")"));
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
            return new Spec(header);
        }
    };

    /** The settings of {@code "auth": "apiKey"}: the header upstreams learn the key's name in, if any. */
    record Spec(Optional<String> nameHeader) implements AuthSpec {
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

    /** The method, built: the keys it checks, and the header upstreams learn a key's name in. */
    record ApiKey(ApiKeys keys, Optional<String> nameHeader) implements Auth {
        @Override
        public boolean sentCredentials(Headers headers) {
            return headers.contains("X-Api-Key") || headers.contains("Authorization");
        }

        @Override
        public Caller authenticate(Headers headers) {
            List<String> sent = headers.all("X-Api-Key");
            String bearer = Credentials.bearer(headers);
            if (sent.size() > 1) {
                throw Credentials.unauthorized("send one X-Api-Key header, not " + sent.size(), "invalid_request");
            }
            String key = !sent.isEmpty() ? sent.getFirst().strip() : bearer;
            if (key == null || key.isEmpty()) {
                throw Credentials.unauthorized("this route needs an API key: send it as X-Api-Key or Authorization: Bearer", null);
            }
            String name = keys.nameOf(key).orElseThrow(() -> Credentials.unauthorized("the API key is not valid", "invalid_token"));
            Headers upstream = nameHeader.map(h -> Headers.of(h, name)).orElse(Headers.EMPTY);
            return new Caller(Optional.of(name), Map.of(), upstream,
                    sent.isEmpty() ? Set.of("authorization") : bearer != null ? Set.of("x-api-key", "authorization") : Set.of("x-api-key"));
        }
    }

}
