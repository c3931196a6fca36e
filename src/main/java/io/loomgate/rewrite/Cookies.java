package io.loomgate.rewrite;

import io.loomgate.http.Headers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A proxy route's {@code "cookiePath": {"/api/": "/p/"}} and {@code "cookieDomain":
 * {"backend.internal": "example.com"}} (nginx's {@code proxy_cookie_path} and
 * {@code proxy_cookie_domain}): each {@code Set-Cookie}'s {@code Path} that starts with a key has
 * that start replaced, and a {@code Domain} equal to a key (case-insensitive, a leading dot
 * ignored) is replaced. The cookie's name, value and other attributes are left alone.
 */
public record Cookies(Map<String, String> paths, Map<String, String> domains) {

    public static final Cookies NONE = new Cookies(Map.of(), Map.of());

    public Cookies {
        paths = Map.copyOf(paths);
        domains = Map.copyOf(domains);
    }

    public Headers rewrite(Headers headers) {
        if (paths.isEmpty() && domains.isEmpty() || !headers.contains("Set-Cookie")) {
            return headers;
        }
        List<String> cookies = new ArrayList<>();
        for (String c : headers.all("Set-Cookie")) {
            cookies.add(one(c));
        }
        Headers out = headers.without(n -> n.equalsIgnoreCase("Set-Cookie"));
        for (String c : cookies) {
            out = out.plus("Set-Cookie", c);
        }
        return out;
    }

    private String one(String cookie) {
        String[] parts = cookie.split(";", -1);
        for (int i = 1; i < parts.length; i++) {
            String attr = parts[i].strip();
            int eq = attr.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String name = attr.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = attr.substring(eq + 1).strip();
            if (name.equals("path")) {
                for (Map.Entry<String, String> p : paths.entrySet()) {
                    if (value.startsWith(p.getKey())) {
                        parts[i] = " Path=" + p.getValue() + value.substring(p.getKey().length());
                        break;
                    }
                }
            } else if (name.equals("domain")) {
                String bare = value.startsWith(".") ? value.substring(1) : value;
                for (Map.Entry<String, String> d : domains.entrySet()) {
                    if (bare.equalsIgnoreCase(d.getKey())) {
                        parts[i] = " Domain=" + d.getValue();
                        break;
                    }
                }
            }
        }
        return String.join(";", parts);
    }
}
