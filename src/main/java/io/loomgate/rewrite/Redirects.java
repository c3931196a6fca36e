package io.loomgate.rewrite;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Locale;

/**
 * Redirects come back through the gateway (nginx's {@code proxy_redirect default}, Spring Cloud
 * Gateway's {@code RewriteLocationResponseHeader}): a {@code Location}, {@code Content-Location}
 * or {@code Refresh} ({@code 5; url=...}) that points at the upstream (one of its URLs, scheme and
 * authority and path) is rewritten to the client's scheme and host and the route's prefix, so no
 * upstream address reaches the client. Anything else is left as the upstream sent it.
 */
public final class Redirects {

    private Redirects() {
    }

    /**
     * @param upstreamBases the upstream's URLs as they would start a URL pointing at it
     *                      ({@code http://10.0.0.5:8080/api/}), each ending in {@code /}
     * @param clientBase    where the client reaches the route ({@code https://api.example.com/p/}),
     *                      ending in {@code /}
     */
    public static Headers rewrite(Headers headers, List<String> upstreamBases, String clientBase) {
        return rewrite(headers, upstreamBases, () -> clientBase);
    }

    /** The same, the client's base made only when the answer has a field to rewrite (most have none). */
    public static Headers rewrite(Headers headers, List<String> upstreamBases, java.util.function.Supplier<String> clientBase) {
        if (!headers.contains("Location") && !headers.contains("Content-Location") && !headers.contains("Refresh")) {
            return headers;
        }
        String base = clientBase.get();
        Headers out = headers;
        for (String name : List.of("Location", "Content-Location")) {
            String v = headers.first(name);
            if (v != null) {
                String r = mapped(v.strip(), upstreamBases, base);
                if (!r.equals(v.strip())) {
                    out = out.with(name, r);
                }
            }
        }
        String refresh = headers.first("Refresh");
        if (refresh != null) {
            int at = refresh.toLowerCase(Locale.ROOT).indexOf("url=");
            if (at >= 0) {
                String url = refresh.substring(at + 4).strip();
                String r = mapped(url, upstreamBases, base);
                if (!r.equals(url)) {
                    out = out.with("Refresh", refresh.substring(0, at + 4) + r);
                }
            }
        }
        return out;
    }

    /**
     * How a URL pointing at an upstream starts, for each of its URLs: scheme, authority, and the
     * path up to its last {@code /} before any placeholder or query ({@code http://10.0.0.5:8080/api/}).
     */
    public static List<String> bases(List<String> urls) {
        List<String> out = new java.util.ArrayList<>();
        for (String url : urls) {
            String noQuery = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
            int scheme = noQuery.indexOf("://") + 3;
            int pathAt = noQuery.indexOf('/', scheme);
            String path = pathAt < 0 ? "/" : noQuery.substring(pathAt);
            int brace = path.indexOf('{');
            path = brace < 0 ? path : path.substring(0, brace);
            out.add(noQuery.substring(0, pathAt < 0 ? noQuery.length() : pathAt) + path.substring(0, path.lastIndexOf('/') + 1));
        }
        return List.copyOf(out);
    }

    /**
     * Where the client reaches a route: {@code scheme}, its {@code Host} (when it is a host) and the
     * route's {@code prefix}; only the prefix, a path a redirect may hold alone, when the {@code Host}
     * is not one (a hostile value is never echoed).
     */
    public static String clientBase(String scheme, String host, String prefix) {
        String p = prefix.endsWith("/") ? prefix : prefix + "/";
        return isHost(host) ? scheme + "://" + host.strip() + p : p;
    }

    /** A {@code Host}-shaped value: a name or an address, perhaps with a port, nothing a header could not carry. */
    public static boolean isHost(String h) {
        if (h == null || h.isBlank() || h.length() > 255) {
            return false;
        }
        String s = h.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c < 0x80 && Character.isLetterOrDigit(c)) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']')) {
                return false;
            }
        }
        return true;
    }

    private static String mapped(String url, List<String> bases, String clientBase) {
        String lower = url.toLowerCase(Locale.ROOT);
        for (String base : bases) {
            String b = base.toLowerCase(Locale.ROOT);
            if (lower.startsWith(b)) {
                return clientBase + url.substring(base.length());
            }
            if (lower.equals(b.substring(0, b.length() - 1))) {   // the base itself, without its slash
                return clientBase;
            }
        }
        return url;
    }
}
