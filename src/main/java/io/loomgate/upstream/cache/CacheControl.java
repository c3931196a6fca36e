package io.loomgate.upstream.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code Cache-Control} directives a shared cache acts on (RFC 9111 section 5.2, RFC 5861),
 * read from every {@code Cache-Control} field line of a response, as one list. A directive this does
 * not know is ignored, as the RFC asks; a malformed number (a letter in it, single quotes, a space
 * about the {@code =}) makes its directive count as absent, except that a malformed {@code max-age}
 * or {@code s-maxage} makes the answer stale (section 4.2.1: treat it as expired). A directive given
 * twice counts by its first occurrence (section 4.2.1); a quoted number ({@code max-age="60"}) is
 * read as the number (section 5.2).
 *
 * @param maxAge               {@code max-age}
 * @param sMaxAge              {@code s-maxage}: a shared cache's own, before {@code max-age}
 * @param noStore              {@code no-store}: never stored
 * @param noCache              {@code no-cache}: stored, but revalidated before every use
 * @param isPrivate            {@code private}: for one user's cache, never a shared one
 * @param isPublic             {@code public}
 * @param mustRevalidate       {@code must-revalidate} or {@code proxy-revalidate}: never served stale
 * @param staleWhileRevalidate {@code stale-while-revalidate} (RFC 5861)
 * @param staleIfError         {@code stale-if-error} (RFC 5861)
 * @param personalFields       the fields a qualified {@code private="..."} or {@code no-cache="..."}
 *                             names (lower-case): a shared cache may keep the rest of the answer, never
 *                             these (section 5.2.2.4 and 5.2.2.7)
 */
public record CacheControl(Optional<Duration> maxAge, Optional<Duration> sMaxAge, boolean noStore, boolean noCache,
                           boolean isPrivate, boolean isPublic, boolean mustRevalidate,
                           Optional<Duration> staleWhileRevalidate, Optional<Duration> staleIfError,
                           Set<String> personalFields) {

    public static final CacheControl NONE = new CacheControl(Optional.empty(), Optional.empty(), false, false, false, false,
            false, Optional.empty(), Optional.empty(), Set.of());

    public CacheControl {
        personalFields = Set.copyOf(personalFields);
    }

    /** A zero lifetime: what a malformed {@code max-age} means. */
    private static final Optional<Duration> EXPIRED = Optional.of(Duration.ZERO);

    /**
     * What a response says to loomgate's cache: its first valid targeted field ({@link
     * TargetedControl}: {@code Loomgate-Cache-Control}, then {@code CDN-Cache-Control}), else its
     * {@code Cache-Control}.
     */
    public static CacheControl ofResponse(io.loomgate.http.Headers response) {
        return TargetedControl.of(response).orElseGet(() -> parse(response.all("Cache-Control")));
    }

    /** The directives of {@code lines}, the values of every {@code Cache-Control} field of one message. */
    public static CacheControl parse(List<String> lines) {
        Directives found = new Directives();
        for (String line : lines) {
            for (String part : directives(line)) {
                String d = part.strip();
                int eq = d.indexOf('=');
                String name = (eq < 0 ? d : d.substring(0, eq)).toLowerCase(Locale.ROOT);
                String raw = eq < 0 ? null : d.substring(eq + 1);
                // no space about the '=' (RFC 9111 section 5.2's grammar): "max-age =60" names no max-age a number may follow
                String value = raw == null || name.endsWith(" ") || name.endsWith("\t") || raw.startsWith(" ") || raw.startsWith("\t")
                        ? (raw == null ? null : "") : unquote(raw);
                switch (name.strip()) {   // a directive given twice counts by its first occurrence
                    case "max-age" -> found.maxAge = found.maxAge.or(() -> seconds(value).or(() -> EXPIRED));
                    case "s-maxage" -> found.sMaxAge = found.sMaxAge.or(() -> seconds(value).or(() -> EXPIRED));
                    case "stale-while-revalidate" -> found.staleWhileRevalidate = found.staleWhileRevalidate.or(() -> seconds(value));
                    case "stale-if-error" -> found.staleIfError = found.staleIfError.or(() -> seconds(value));
                    case "no-store" -> found.noStore = true;
                    // the qualified forms name fields never reused from a shared cache; the rest may be
                    case "no-cache" -> found.noCache |= !fieldNames(value, found.personal);
                    case "private" -> found.isPrivate |= !fieldNames(value, found.personal);
                    case "public" -> found.isPublic = true;
                    case "must-revalidate", "proxy-revalidate" -> found.mustRevalidate = true;
                    default -> {
                        // an extension this cache does not know: ignored (RFC 9111 section 5.2.3)
                    }
                }
            }
        }
        return found.build();
    }

    /** One field line's directives: split at the commas outside quoted strings ({@code no-cache="a, b"} is one). */
    static List<String> directives(String line) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int from = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && quoted) {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(line.substring(from, i));
                from = i + 1;
            }
        }
        out.add(line.substring(from));
        return out;
    }

    /**
     * Adds the field names a qualified directive lists to {@code into}; false for the unqualified form
     * (no value, or one naming no field), which applies to the whole answer.
     */
    private static boolean fieldNames(String value, Set<String> into) {
        if (value == null) {
            return false;
        }
        List<String> names = java.util.Arrays.stream(value.split(",")).map(String::strip).filter(n -> !n.isEmpty())
                .map(n -> n.toLowerCase(Locale.ROOT)).toList();
        into.addAll(names);
        return !names.isEmpty();
    }

    /** A delta-seconds value (digits only); a value past 2^31 seconds is 2^31 (section 1.2.2). */
    private static Optional<Duration> seconds(String value) {
        if (value == null || value.isEmpty() || value.chars().anyMatch(c -> c < '0' || c > '9')) {
            return Optional.empty();
        }
        long s = value.length() > 10 ? Integer.MAX_VALUE + 1L : Math.min(Long.parseLong(value), Integer.MAX_VALUE + 1L);
        return Optional.of(Duration.ofSeconds(s));
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
