package io.loomgate.plan;

import io.loomgate.edge.auth.AuthModule;
import io.loomgate.edge.auth.AuthSpec;
import io.loomgate.edge.compress.Compression;
import io.loomgate.edge.cors.Cors;
import io.loomgate.edge.limit.AuthFailures;
import io.loomgate.edge.limit.RateLimiter;
import io.loomgate.module.Fields;
import io.loomgate.module.HeaderNames;
import io.loomgate.module.RouteFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a route's edge: {@code "auth"}, {@code "rateLimit"} and {@code "cors"}, each checked here,
 * a JWKS file read and its keys checked too. A route without {@code auth} or {@code cors} takes the
 * file's top-level one; {@code "auth": "none"} opts a route out. A JWKS file's name is found beside
 * the route file when relative.
 *
 * <pre>{@code
 * "auth": "apiKey"
 * "auth": {"apiKey": {"nameHeader": "X-Consumer"}}
 * "auth": {"jwt": {"jwksFile": "keys.json", "issuer": "https://id.example", "audience": "orders",
 *                  "require": {"scope": "orders:read"}, "forwardClaims": {"sub": "X-User"}}}
 * "rateLimit": {"perSecond": 50, "burst": 100, "by": "apiKey"}
 * "cors": {"origins": ["https://app.example"], "methods": ["GET", "POST"], "headers": ["Content-Type"], "maxAge": "10m"}
 * }</pre>
 */
final class EdgeReader {

    private static final List<String> CORS_METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH");

    private EdgeReader() {
    }

    /** The file's own {@code auth} and {@code cors}, the defaults of its routes. */
    static EdgeDecl top(Fields top, List<AuthModule> methods) throws RouteFileException {
        Map<String, Object> written = new LinkedHashMap<>();
        top.optionalValue("auth").ifPresent(v -> written.put("auth", v));
        top.optionalValue("cors").ifPresent(v -> written.put("cors", v));
        top.optionalValue("compress").ifPresent(v -> written.put("compress", v));
        Optional<AuthSpec> auth = written.containsKey("auth") ? Optional.of(auth(top, methods)) : Optional.empty();
        Optional<Cors> cors = written.containsKey("cors") ? Optional.of(cors(top)) : Optional.empty();
        Optional<Compression> compress = written.containsKey("compress") ? compress(top) : Optional.empty();
        return new EdgeDecl(auth, Optional.empty(), cors, Optional.empty(), written, compress);
    }

    /** The file's {@code authFailures}: how many refused credentials a client address may send; empty when "off". */
    static Optional<RateLimiter.Settings> authFailures(Fields top) throws RouteFileException {
        Optional<Object> v = top.optionalValue("authFailures");
        if (v.isEmpty()) {
            return Optional.of(AuthFailures.DEFAULT);
        }
        if ("off".equals(v.get())) {
            return Optional.empty();
        }
        if (!(v.get() instanceof Map<?, ?>)) {
            throw top.bad("authFailures", "must be \"off\" or {\"burst\": N, \"perSecond\": R}", v.get());
        }
        Fields f = top.object("authFailures");
        long burst = f.optionalInteger("burst", 1, 1_000_000).orElse((long) AuthFailures.DEFAULT.burst());
        double perSecond = f.optionalNumber("perSecond", 0.001, 1_000_000).orElse(AuthFailures.DEFAULT.perSecond());
        int maxKeys = maxKeys(f);
        f.finish("authFailures", List.of("burst", "perSecond", "maxKeys"));
        return Optional.of(new RateLimiter.Settings(perSecond, (int) burst, "ip", maxKeys));
    }

    /** A route's edge, over the file's defaults. */
    static EdgeDecl route(Fields f, EdgeDecl file, List<AuthModule> methods) throws RouteFileException {
        Map<String, Object> written = new LinkedHashMap<>();
        for (String name : List.of("auth", "rateLimit", "preAuthLimit", "cors", "compress")) {
            f.optionalValue(name).ifPresent(v -> written.put(name, v));
        }
        Optional<AuthSpec> auth = written.containsKey("auth") ? Optional.of(auth(f, methods)) : file.auth();
        Optional<Cors> cors = written.containsKey("cors") ? Optional.of(cors(f)) : file.cors();
        Optional<Compression> compress = written.containsKey("compress") ? compress(f) : file.compress();
        file.written().forEach(written::putIfAbsent);   // what the route inherits, so a printed table says it per route
        Optional<RateLimiter.Settings> limit = Optional.empty();
        if (written.containsKey("rateLimit")) {
            limit = Optional.of(rateLimit(f, auth, methods));
        }
        Optional<RateLimiter.Settings> preAuth = Optional.empty();
        if (written.containsKey("preAuthLimit")) {
            Fields p = f.object("preAuthLimit");
            preAuth = Optional.of(new RateLimiter.Settings(perSecond(p), (int) burst(p, perSecond(p)), "ip", maxKeys(p)));
            p.finish("a pre-auth limit", List.of("perSecond", "burst", "maxKeys"));
        }
        return new EdgeDecl(auth, limit, cors, preAuth, written, compress);
    }

    /** {@code "compress": {"types": [...], "minBytes": 1024}} (both optional), or {@code false} for none on a route. */
    private static Optional<Compression> compress(Fields f) throws RouteFileException {
        Object v = f.optionalValue("compress").orElseThrow();
        if (Boolean.FALSE.equals(v)) {
            return Optional.empty();
        }
        if (!(v instanceof Map<?, ?>)) {
            throw f.bad("compress", "must be {\"types\": [...], \"minBytes\": 1024} or false", v);
        }
        Fields c = f.object("compress");
        List<String> types = c.optionalStrings("types", t -> t.matches("[A-Za-z0-9!#$&^_.+-]+/([A-Za-z0-9!#$&^_.+-]+|\\*)"),
                "a media type such as application/json or text/*");
        long min = c.optionalSize("minBytes", 0, 1L << 30).orElse(Compression.DEFAULT_MIN_BYTES);
        c.finish("compress", List.of("types", "minBytes"));
        return Optional.of(new Compression(types.isEmpty() ? Compression.DEFAULT_TYPES : types, min));
    }

    /** {@code "auth"}: a registered method's bare name, or an object of one method's name and its settings. */
    private static AuthSpec auth(Fields f, List<AuthModule> methods) throws RouteFileException {
        Object v = f.optionalValue("auth").orElseThrow();
        List<String> forms = new ArrayList<>();
        methods.stream().filter(AuthModule::bare).forEach(m -> forms.add("\"" + m.name() + "\""));
        methods.stream().filter(AuthModule::configurable).forEach(m -> forms.add("{\"" + m.name() + "\": {...}}"));
        String accepted = "must be " + String.join(", ", forms.subList(0, forms.size() - 1)) + " or " + forms.getLast();
        if (v instanceof String s) {
            for (AuthModule m : methods) {
                if (m.bare() && m.name().equals(s)) {
                    return m.read(Optional.empty());
                }
            }
            throw f.bad("auth", accepted, s);
        }
        Optional<Map<String, Object>> object = f.optionalObject("auth");
        if (object.isEmpty() || object.get().size() != 1) {
            throw f.bad("auth", accepted, v);
        }
        Fields auth = f.nested(f.at("auth"), object.get());
        for (AuthModule m : methods) {
            if (m.configurable() && auth.optionalValue(m.name()).isPresent()) {
                return m.read(Optional.of(auth.object(m.name())));
            }
        }
        throw f.bad("auth", accepted, v);
    }

    private static RateLimiter.Settings rateLimit(Fields f, Optional<AuthSpec> auth, List<AuthModule> methods)
            throws RouteFileException {
        Fields r = f.object("rateLimit");
        double perSecond = perSecond(r);
        long burst = burst(r, perSecond);
        int maxKeys = maxKeys(r);
        String by = r.optionalString("by").orElse("ip");
        boolean header = by.startsWith("header.") && HeaderNames.isName(by.substring(7));
        List<AuthModule.LimitKey> callers = methods.stream().flatMap(m -> m.limitKey().stream()).toList();
        Optional<AuthModule.LimitKey> caller = callers.stream().filter(k -> k.by().equals(by)).findFirst();
        if (!by.equals("ip") && caller.isEmpty() && !header) {
            List<String> accepted = new ArrayList<>(callers.stream().map(AuthModule.LimitKey::by).toList());
            accepted.add("ip");
            throw r.bad("by", "must be " + String.join(", ", accepted) + " or header.NAME", by);
        }
        if (caller.isPresent() && !auth.flatMap(AuthSpec::limitKey).equals(Optional.of(by))) {
            throw r.bad("by", by + " needs the route to require " + caller.get().needs(), by);
        }
        boolean shared = r.optionalBoolean("shared").orElse(false);
        Optional<String> onError = r.optionalString("onStoreError");
        if (onError.isPresent() && !onError.get().equals("allow") && !onError.get().equals("deny")) {
            throw r.bad("onStoreError", "must be allow (this instance's own bucket when Redis does not answer) or deny (503)",
                    onError.get());
        }
        if (onError.isPresent() && !shared) {
            throw r.bad("onStoreError", "is for a limit with \"shared\": true", onError.get());
        }
        r.finish("a rate limit", List.of("perSecond", "burst", "by", "maxKeys", "shared", "onStoreError"));
        Optional<RateLimiter.OnStoreError> store = !shared ? Optional.empty()
                : Optional.of(onError.orElse("allow").equals("deny") ? RateLimiter.OnStoreError.DENY : RateLimiter.OnStoreError.ALLOW);
        return new RateLimiter.Settings(perSecond, (int) burst, by, maxKeys, store);
    }

    private static double perSecond(Fields r) throws RouteFileException {
        return r.optionalNumber("perSecond", 0.001, 1_000_000)
                .orElseThrow(() -> r.missing("perSecond", "a number of requests a second, above 0"));
    }

    private static long burst(Fields r, double perSecond) throws RouteFileException {
        return r.optionalInteger("burst", 1, 1_000_000).orElse((long) Math.max(1, Math.ceil(perSecond)));
    }

    /** How many keys a limit holds at once: each about {@code 128} bytes, so 1,000,000 is about 128 MB. */
    private static int maxKeys(Fields r) throws RouteFileException {
        return (int) r.optionalInteger("maxKeys", 1, 1_000_000).orElse((long) RateLimiter.DEFAULT_MAX_KEYS).longValue();
    }

    private static Cors cors(Fields f) throws RouteFileException {
        Fields c = f.object("cors");
        List<String> origins = c.optionalStrings("origins", EdgeReader::origin, "an origin such as https://app.example.com, or *");
        if (origins.isEmpty()) {
            throw c.missing("origins", "a non-empty array of origins");
        }
        List<String> methods = c.optionalStrings("methods", CORS_METHODS::contains, "one of " + String.join(", ", CORS_METHODS));
        List<String> headers = c.optionalStrings("headers", h -> h.equals("*") || HeaderNames.isName(h), "a header name, or *");
        List<String> expose = c.optionalStrings("exposeHeaders", HeaderNames::isName, "a header name");
        Duration maxAge = c.optionalDuration("maxAge", Duration.ZERO, Duration.ofDays(1)).orElse(Duration.ofMinutes(10));
        boolean credentials = c.optionalBoolean("credentials").orElse(false);
        if (credentials && (origins.contains("*") || headers.contains("*"))) {
            throw c.bad("credentials", "cannot go with \"*\" in origins or headers: a browser sends cookies only to origins"
                    + " named one by one", true);
        }
        c.finish("cors", List.of("origins", "methods", "headers", "exposeHeaders", "maxAge", "credentials"));
        return new Cors(origins, methods.isEmpty() ? List.of("GET", "HEAD", "POST") : methods, headers, expose, maxAge, credentials);
    }

    /** {@code scheme://host[:port]}, as a browser sends it in Origin, or {@code *}. */
    private static boolean origin(String s) {
        return s.equals("*") || s.matches("https?://[A-Za-z0-9.-]+(:\\d{1,5})?|https?://\\[[0-9a-fA-F:.]+](:\\d{1,5})?");
    }
}
