package io.loomgate.client;

import io.loomgate.core.template.Template;
import io.loomgate.tls.ClientTls;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Optional;

/**
 * Where an upstream's connections go: host, port, the {@code Host} header, the pool key, and for
 * {@code https://} the TLS to speak. Worked out once from the upstream's URL, so no request has to
 * parse a URI.
 *
 * @param target  the URL's raw path and query ({@code /api/?x=1}), what requests extend; it may hold
 *                placeholders ({@code /users/{id}}), filled in per request
 * @param address the one address of {@code host} its connections go to, when its host name was
 *                resolved into several endpoints; empty: each connection resolves {@code host}
 * @param protocol what its connections speak: HTTP/1.1, or HTTP/2 (h2 over TLS by ALPN, h2c in clear
 *                with prior knowledge), or over TLS whichever of the two ALPN chooses (auto)
 */
public record Origin(String host, int port, String authority, String key, Template target, Optional<ClientTls> tls,
              Optional<InetAddress> address, Protocol protocol) {

    /** What an upstream's connections speak ({@code "protocol"} in the route file). */
    public enum Protocol {
        HTTP_1_1("http/1.1"), H2("h2"), H2C("h2c"), AUTO("auto");

        private final String name;

        Protocol(String name) {
            this.name = name;
        }

        /** As the route file and ALPN write it. */
        public String text() {
            return name;
        }

        /** The protocol {@code text} names, or empty. */
        public static Optional<Protocol> of(String text) {
            for (Protocol p : values()) {
                if (p.name.equals(text)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }
    }

    /** A plain {@code http://} origin. */
    public static Origin of(String url) {
        return of(url, Optional.empty());
    }

    /**
     * {@code url} may hold placeholders in its path and query, never in its scheme, host or port;
     * an {@code https://} URL needs {@code tls}, whose trust is part of the pool key (connections
     * made under one trust are never lent to an upstream with another).
     */
    public static Origin of(String url, Optional<ClientTls> tls) {
        URI uri = URI.create(url.replaceAll("\\{[^}]*}", "x"));
        boolean https = "https".equals(uri.getScheme());
        if (https != tls.isPresent()) {
            throw new IllegalArgumentException(https ? "an https URL needs TLS settings" : "TLS settings for a plain URL");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
        int pathStart = url.indexOf('/', url.indexOf("//") + 2);
        String target = pathStart < 0 ? "/" : url.substring(pathStart);
        String key = (https ? "https://" : "") + uri.getHost() + ":" + port + tls.map(t -> " trusting " + t.trust()).orElse("");
        return new Origin(uri.getHost(), port, uri.getRawAuthority(), key, Template.parse(target), tls, Optional.empty(), Protocol.HTTP_1_1);
    }

    /**
     * This origin at one address of its host: connections go there, and are pooled apart from the
     * other addresses', while the {@code Host} header and TLS (its name and certificate checks) keep the host name.
     */
    public Origin at(InetAddress a) {
        return new Origin(host, port, authority, key + "@" + a.getHostAddress(), target, tls, Optional.of(a), protocol);
    }

    /**
     * This origin spoken to in {@code p}: h2 and auto need an {@code https://} URL, h2c a plain one.
     * Its connections are pooled apart from HTTP/1.1's.
     */
    public Origin speaking(Protocol p) {
        if ((p == Protocol.H2 || p == Protocol.AUTO) && tls.isEmpty() || p == Protocol.H2C && tls.isPresent()) {
            throw new IllegalArgumentException(p.text() + (p == Protocol.H2C ? " needs an http:// URL" : " needs an https:// URL"));
        }
        return p == protocol ? this : new Origin(host, port, authority,
                (p == Protocol.HTTP_1_1 ? key : key + " " + p.text()), target, tls, address, p);
    }

    /** True when {@code host} is an IP address written out, not a name to resolve. */
    public boolean literal() {
        return host.startsWith("[") || host.chars().allMatch(c -> Character.isDigit(c) || c == '.') || host.indexOf(':') >= 0;
    }

    /** Where a connection goes: the resolved address, or the host name (resolved by the connection). */
    InetSocketAddress socketAddress() {
        return address.map(a -> new InetSocketAddress(a, port)).orElseGet(() -> new InetSocketAddress(host, port));
    }

    /** How the balance names it: {@code 10.0.0.5:8080}, or {@code orders.svc:8080} before its name is resolved. */
    public String endpointName() {
        String name = address.map(InetAddress::getHostAddress).orElse(host);
        return (name.indexOf(':') >= 0 && !name.startsWith("[") ? "[" + name + "]" : name) + ":" + port;
    }

    /** True when the URL's host part holds a placeholder, which is refused. */
    public static boolean placeholderInAuthority(String url) {
        int authority = url.indexOf("//") + 2;
        int pathStart = url.indexOf('/', authority);
        String host = pathStart < 0 ? url.substring(authority) : url.substring(authority, pathStart);
        return host.indexOf('{') >= 0 || host.indexOf('}') >= 0;
    }

    /** {@code target} with more query parameters ({@code a=1&b=2}) added to its own. */
    public static String withQuery(String target, String query) {
        return query.isEmpty() ? target : target + (target.indexOf('?') >= 0 ? "&" : "?") + query;
    }

    /** A compose call's path and query below {@code base} (the URL's own): {@code /api} and {@code /users/7} make {@code /api/users/7}. */
    public static String below(String base, String call) {
        int q = base.indexOf('?');
        String path = q < 0 ? base : base.substring(0, q);
        String query = q < 0 ? "" : base.substring(q + 1);
        String joined = (path.endsWith("/") ? path.substring(0, path.length() - 1) : path) + call;
        return withQuery(joined, query);
    }
}
