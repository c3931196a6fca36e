package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import java.util.List;
import java.util.Optional;

/**
 * Targeted cache control (RFC 9213): {@code Loomgate-Cache-Control}, the gateway's own target, then
 * {@code CDN-Cache-Control}. The first of them an answer carries that is a valid Structured Fields
 * Dictionary (RFC 8941) whose directives have the right types takes the place of its
 * {@code Cache-Control} and {@code Expires} for loomgate's cache; one that is not is ignored, as if
 * absent (a quoted {@code max-age}, {@code &&&}, an upper-case key). Neither reaches the client
 * through an upstream with a cache ({@link #strip}): they are for this cache.
 *
 * <p>Failing both, the older {@code Surrogate-Control} (W3C's Edge Architecture note, as Fastly and
 * Akamai read it) does the same, in {@code Cache-Control}'s syntax: its directives for every
 * surrogate, and those targeted at loomgate ({@code max-age=60;loomgate}), which the cache names
 * upstream in {@code Surrogate-Capability} ({@link #advertised}). It passes to the client unchanged,
 * since a surrogate in front may be the target of the rest.
 */
public final class TargetedControl {

    /** The targeted fields loomgate's cache obeys, most specific first. */
    public static final List<String> FIELDS = List.of("Loomgate-Cache-Control", "CDN-Cache-Control");

    private TargetedControl() {
    }

    /** The device token loomgate's cache answers to in {@code Surrogate-Control}, and gives in {@code Surrogate-Capability}. */
    public static final String DEVICE = "loomgate";

    /** The directives of the first valid targeted field of {@code response}; empty when there is none. */
    public static Optional<CacheControl> of(Headers response) {
        for (String field : FIELDS) {
            List<String> lines = response.all(field);
            if (!lines.isEmpty()) {
                Optional<CacheControl> cc = parse(String.join(",", lines));
                if (cc.isPresent()) {
                    return cc;
                }
            }
        }
        return surrogate(response.all("Surrogate-Control"));
    }

    /** A request to an upstream through the cache, naming the cache as a surrogate beside any the client's request names. */
    public static Headers advertised(Headers request) {
        return request.plus("Surrogate-Capability", DEVICE + "=\"Surrogate/1.0\"");
    }

    /** {@code Surrogate-Control}'s directives for loomgate: those with no target and those targeted at {@link #DEVICE}. */
    static Optional<CacheControl> surrogate(List<String> lines) {
        List<String> mine = new java.util.ArrayList<>();
        for (String line : lines) {
            for (String d : CacheControl.directives(line)) {
                int semi = d.lastIndexOf(';');
                if (semi < 0) {
                    mine.add(d);
                } else if (d.substring(semi + 1).strip().equalsIgnoreCase(DEVICE)) {
                    mine.add(d.substring(0, semi));
                }
            }
        }
        return mine.stream().allMatch(String::isBlank) ? Optional.empty() : Optional.of(CacheControl.parse(List.of(String.join(",", mine))));
    }

    /** {@code headers} without the targeted fields: what a client is shown of an answer through the cache. */
    public static Headers strip(Headers headers) {
        return headers.without(n -> FIELDS.stream().anyMatch(n::equalsIgnoreCase));
    }

    /** One targeted field's value as cache directives; empty when it is not a valid dictionary of them. */
    static Optional<CacheControl> parse(String value) {
        Directives found = new Directives();
        Dictionary d = new Dictionary(value);
        try {
            for (Dictionary.Member m = d.next(); m != null; m = d.next()) {
                switch (m.key()) {
                    case "max-age" -> found.maxAge = Optional.of(m.seconds());
                    case "s-maxage" -> found.sMaxAge = Optional.of(m.seconds());
                    case "stale-while-revalidate" -> found.staleWhileRevalidate = Optional.of(m.seconds());
                    case "stale-if-error" -> found.staleIfError = Optional.of(m.seconds());
                    case "no-store" -> found.noStore = m.flag();
                    case "no-cache" -> found.noCache = m.flagOrFields(found.personal);
                    case "private" -> found.isPrivate = m.flagOrFields(found.personal);
                    case "public" -> found.isPublic = m.flag();
                    case "must-revalidate", "proxy-revalidate" -> found.mustRevalidate |= m.flag();
                    default -> {
                        // an extension: ignored, its syntax checked all the same
                    }
                }
            }
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
        return Optional.of(found.build());
    }
}
