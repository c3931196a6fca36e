package io.loomgate.edge.limit;

/**
 * What a rate limit's buckets are keyed by, read once from the route file's {@code "by"} when the
 * plan is built, so the filter switches over a type instead of parsing the text on every request.
 *
 * <pre>{@code
 * KeySource.of("ip");              // ClientAddress
 * KeySource.of("header.X-Tenant"); // HeaderValue("X-Tenant")
 * KeySource.of("jwt.sub");         // Caller: the name authentication found
 * }</pre>
 */
public sealed interface KeySource {

    /** {@code ip}: the client's address (a trusted proxy's forwarded one). */
    record ClientAddress() implements KeySource {
        @Override
        public String words() {
            return "client address";
        }
    }

    /** {@code header.NAME}: the value of that header; a request without it shares the empty key's bucket. */
    record HeaderValue(String name) implements KeySource {
        @Override
        public String words() {
            return name + " header value";
        }
    }

    /** {@code apiKey}, {@code jwt.sub}, ...: the caller the route's authentication found. */
    record Caller(String by) implements KeySource {
        @Override
        public String words() {
            return switch (by) {
                case "apiKey" -> "API key";
                case "jwt.sub" -> "token subject";
                default -> by;
            };
        }
    }

    /** What a bucket is for, in words: {@code API key}, {@code client address}, {@code X-Tenant header value}. */
    String words();

    /** The key {@code by} names (the route file checked it). */
    static KeySource of(String by) {
        if (by.equals("ip")) {
            return new ClientAddress();
        }
        if (by.startsWith("header.")) {
            return new HeaderValue(by.substring("header.".length()));
        }
        return new Caller(by);
    }
}
