package io.loomgate.upstream.http;

import io.loomgate.client.Http1Client;
import io.loomgate.client.Origin;
import io.loomgate.config.AddressRanges;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Placeholder;
import io.loomgate.core.template.Template;
import io.loomgate.tls.ClientTls;
import io.loomgate.tls.TlsException;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import io.loomgate.core.port.Upstream;
import io.loomgate.upstream.UpstreamKind;
import io.loomgate.upstream.cache.CacheSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code "kind": "http"}: an upstream reached over HTTP/1.1, or over HTTP/2 when it says
 * {@code "protocol": "h2c" | "h2" | "auto"}. One client, with pooled keep-alive connections (shared
 * ones for HTTP/2), serves every HTTP upstream and proxy route of a loomgate; {@link #close} releases it.
 * It is loomgate's own small blocking client ({@link Http1Client}), not the JDK's
 * {@code java.net.http.HttpClient}: on virtual threads it does the same work for far less CPU (the
 * measurement is in docs/performance.md, the reasons in docs/decisions/0001-own-http-client.md).
 *
 * <pre>{@code
 * {"id": "db", "kind": "http", "url": "http://127.0.0.1:9090/db",
 *  "forwardQuery": ["n"], "forwardHeaders": ["Authorization"], "timeout": "500ms", "maxBodyBytes": 65536,
 *  "idleTimeout": "30s"}
 * }</pre>
 */
public final class HttpKind implements UpstreamKind, AutoCloseable {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final Http1Client client = new Http1Client(CONNECT_TIMEOUT);
    private final HttpUpstream.Forwarding forwarding;

    /** @param trustedProxies peers whose forwarding headers a proxy route keeps ({@code --trusted-proxies}) */
    public HttpKind(AddressRanges trustedProxies) {
        this(trustedProxies, "http");
    }

    /** @param listenerScheme {@code http}, or {@code https} when loomgate serves TLS: what a proxy sends as {@code X-Forwarded-Proto} */
    public HttpKind(AddressRanges trustedProxies, String listenerScheme) {
        this.forwarding = new HttpUpstream.Forwarding(trustedProxies, listenerScheme);
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public List<String> fields() {
        return List.of("url", "endpoints", "balance", "hashKey", "outliers", "health", "resolveEvery", "slowStart", "forwardQuery", "forwardHeaders", "timeout",
                "maxBodyBytes", "idleTimeout", "caFile", "cache", "preserveHost", "forwarded", "protocol");
    }

    @Override
    public HttpSettings read(Fields fields) throws RouteFileException {
        HttpSettings.Replicas replicas = Replicas.read(fields, HttpKind::url);
        String url = replicas.endpoints().isEmpty() ? fields.string("url") : replicas.endpoints().getFirst();
        if (replicas.endpoints().isEmpty()) {
            url(fields, url);
        }
        List<String> query = fields.optionalStrings("forwardQuery", n -> !n.isEmpty(), "a query parameter name");
        List<String> headers = fields.optionalStrings("forwardHeaders", HttpKind::forwardable,
                "a header name that is not hop-by-hop (Connection, Transfer-Encoding, ...) nor Host, Content-Length, Expect");
        Optional<Duration> timeout = fields.optionalDuration("timeout", Duration.ofMillis(1), Duration.ofHours(1));
        long max = fields.optionalSize("maxBodyBytes", 1, 64L * 1024 * 1024).orElse((long) HttpSettings.DEFAULT_MAX_BODY);
        Duration idle = fields.optionalDuration("idleTimeout", Duration.ofMillis(10), Duration.ofHours(1))
                .orElse(HttpSettings.DEFAULT_IDLE_TIMEOUT);
        Optional<String> caFile = fields.optionalString("caFile");
        if (caFile.isPresent()) {
            if (!url.startsWith("https://")) {
                throw fields.bad("caFile", "is only for an https:// URL", caFile.get());
            }
            try {
                ClientTls.trusting(Optional.of(fields.file(caFile.get())));
            } catch (TlsException | InvalidPathException e) {
                throw fields.bad("caFile", "must be a readable PEM file of CA certificates: " + e.getMessage(), caFile.get());
            }
        }
        return new HttpSettings(url, query, headers, timeout, (int) max, idle, caFile.map(fields::file), replicas,
                CacheSettings.read(fields), Proxying.read(fields), protocol(fields, url));
    }

    /**
     * {@code "protocol"}: http/1.1 (the default for an http:// URL), h2 (an https:// URL; ALPN must
     * choose it), h2c (an http:// URL, prior knowledge) or auto (an https:// URL, and its default; ALPN
     * chooses h2 or HTTP/1.1).
     */
    private static Origin.Protocol protocol(Fields fields, String url) throws RouteFileException {
        Optional<String> named = fields.optionalString("protocol");
        boolean https = url.startsWith("https://");
        if (named.isEmpty()) {
            return https ? Origin.Protocol.AUTO : Origin.Protocol.HTTP_1_1;
        }
        Origin.Protocol p = Origin.Protocol.of(named.get()).orElseThrow(() -> fields.bad("protocol",
                "must be http/1.1, h2, h2c or auto", named.get()));
        if ((p == Origin.Protocol.H2 || p == Origin.Protocol.AUTO) && !https || p == Origin.Protocol.H2C && https) {
            throw fields.bad("protocol", p == Origin.Protocol.H2C ? "h2c needs http:// URLs (h2 is HTTP/2 over TLS)"
                    : p.text() + " needs https:// URLs (ALPN chooses over TLS; h2c is HTTP/2 in clear)", named.get());
        }
        return p;
    }

    @Override
    public Upstream create(UpstreamId id, Settings settings) {
        return new HttpUpstream(id, (HttpSettings) settings, client, forwarding);
    }

    /**
     * An absolute {@code http://} or {@code https://} URL; its path and query may hold placeholders the request fills
     * in ({@code {id}}, {@code {query.NAME}}, {@code {header.NAME}}), never its host.
     */
    static void url(Fields fields, String url) throws RouteFileException {
        url(fields, "url", url);
    }

    /** {@code url} as field {@code field} ({@code url}, or {@code endpoints[1]}) of this upstream. */
    static void url(Fields fields, String field, String url) throws RouteFileException {
        String accepted = "must be an absolute http:// or https:// URL with a host and no user info or fragment";
        Template template = fields.template(field, url);
        try {
            URI uri = new URI(url.replaceAll("\\{[^}]*}", "x"));
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null || uri.getRawFragment() != null
                    || uri.getRawUserInfo() != null) {
                throw fields.bad(field, accepted, url);
            }
            if (uri.getPort() == 0 || uri.getPort() > 65_535) {
                throw fields.bad(field, "has port " + uri.getPort() + "; a port is 1 to 65535", url);
            }
        } catch (URISyntaxException e) {
            throw fields.bad(field, accepted, url);
        }
        if (Origin.placeholderInAuthority(url)) {
            throw fields.bad(field, "may hold placeholders in its path and query, not in its host or port", url);
        }
        for (Placeholder p : template.placeholders()) {
            boolean request = p.head().equals(Bindings.QUERY) || p.head().equals(Bindings.HEADER) ? p.fields().size() >= 1
                    : p.fields().isEmpty();
            if (!request) {
                throw fields.bad(field, "may hold {name} (a path parameter), {query.NAME} or {header.NAME}, not " + p
                        + " (a call's answer is for a compose call's path)", url);
            }
        }
    }

    private static boolean forwardable(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != ':')
                && !HopByHop.notForwardable(name);
    }

    @Override
    public OptionalInt idleConnections(Settings settings) {
        List<String> keys = poolKeys((HttpSettings) settings);
        return keys.isEmpty() ? OptionalInt.empty() : OptionalInt.of(keys.stream().mapToInt(client::pooled).sum());
    }

    @Override
    public void release(Settings settings) {
        poolKeys((HttpSettings) settings).forEach(client::closeIdle);
    }

    @Override
    public Optional<String> pool(Settings settings) {
        List<String> keys = poolKeys((HttpSettings) settings);
        return keys.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", keys));
    }

    /** The pools an upstream of these settings draws from, one per endpoint: host, port, and for https its trust. */
    private static List<String> poolKeys(HttpSettings s) {
        try {
            Optional<ClientTls> tls = s.https() ? Optional.of(ClientTls.trusting(s.caFile())) : Optional.empty();
            return s.urls().stream().map(u -> Origin.of(u, tls).speaking(s.protocol()).key()).toList();
        } catch (TlsException e) {
            return List.of();   // its CA file is gone: whatever it pooled idles out
        }
    }

    @Override
    public io.loomgate.observe.MetricSet metrics() {
        return new ClientConnectionMetrics(client.stats());
    }

    /** Closes the pooled connections. */
    @Override
    public void close() {
        client.close();
    }
}
