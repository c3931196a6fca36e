package io.loomgate.upstream.cache;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpDate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One answer as the cache holds it: its status, its end-to-end header fields, its body, and when it
 * was asked for and came (wall-clock milliseconds, as RFC 9111's age arithmetic uses), with what its
 * fields say about freshness worked out once.
 *
 * @param requestMillis  when the request that brought it was sent
 * @param responseMillis when it came
 * @param varyValues     the values of the request fields its {@code Vary} names, in order, from the
 *                       request that brought it
 */
public record StoredAnswer(int status, Headers headers, byte[] body, long requestMillis, long responseMillis,
                           List<String> varyValues, long purgedMillis) {

    /** The fields an upstream tags its answers with, for a purge by tag: Cloudflare's (commas) and Fastly's (spaces). */
    public static final List<String> TAG_FIELDS = List.of("Cache-Tag", "Surrogate-Key");

    public StoredAnswer {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        varyValues = List.copyOf(varyValues);
    }

    /** An answer no operator purged. */
    public StoredAnswer(int status, Headers headers, byte[] body, long requestMillis, long responseMillis, List<String> varyValues) {
        this(status, headers, body, requestMillis, responseMillis, varyValues, 0);
    }

    /** This answer, stale from {@code nowMillis} on whatever its fields say (a soft purge); as it is if it was purged already. */
    public StoredAnswer purged(long nowMillis) {
        return purgedMillis != 0 ? this : new StoredAnswer(status, headers, body, requestMillis, responseMillis, varyValues, nowMillis);
    }

    /** Its tags: the comma-separated {@code Cache-Tag} values and the space-separated {@code Surrogate-Key} ones. */
    public java.util.Set<String> tags() {
        java.util.Set<String> tags = new java.util.HashSet<>();
        headers.all("Cache-Tag").forEach(v -> Arrays.stream(v.split(",")).map(String::strip).filter(t -> !t.isEmpty()).forEach(tags::add));
        headers.all("Surrogate-Key").forEach(v -> Arrays.stream(v.strip().split("[ \t]+")).filter(t -> !t.isEmpty()).forEach(tags::add));
        return tags;
    }

    public CacheControl cacheControl() {
        return CacheControl.ofResponse(headers);   // a targeted field (CDN-Cache-Control, ...) before Cache-Control
    }

    /** The request fields its {@code Vary} names, lower-case, in order; {@code *} when it varies on everything. */
    public List<String> vary() {
        return varyOf(headers);
    }

    /** The field names {@code Vary} lists in {@code headers}, lower-case, in order. */
    public static List<String> varyOf(Headers headers) {
        return headers.all("Vary").stream().flatMap(v -> Arrays.stream(v.split(","))).map(String::strip)
                .filter(s -> !s.isEmpty()).map(s -> s.toLowerCase(Locale.ROOT)).distinct().toList();
    }

    public Optional<String> etag() {
        return Optional.ofNullable(headers.first("ETag"));
    }

    public Optional<String> lastModified() {
        return Optional.ofNullable(headers.first("Last-Modified"));
    }

    /** How many bytes it holds: body, fields and the bookkeeping, near enough for a byte bound. */
    public long bytes() {
        long[] n = {body.length + 64};
        headers.forEach((name, value) -> n[0] += name.length() + value.length() + 32);
        varyValues.forEach(v -> n[0] += v.length() + 16);
        return n[0];
    }

    /**
     * How long it is fresh for, as a shared cache counts (RFC 9111 section 4.2.1): {@code s-maxage},
     * else {@code max-age}, else {@code Expires} less {@code Date}, else {@code heuristic} (the
     * route file's {@code defaultTtl}) for a status that may be cached without one.
     */
    public Duration lifetime(Duration heuristic) {
        CacheControl cc = cacheControl();
        if (cc.sMaxAge().isPresent()) {
            return cc.sMaxAge().get();
        }
        if (cc.maxAge().isPresent()) {
            return cc.maxAge().get();
        }
        List<String> expires = headers.all("Expires");
        if (!expires.isEmpty() && TargetedControl.of(headers).isEmpty()) {   // a targeted field sets Expires aside (RFC 9213)
            Optional<Long> at = HttpDate.only(expires);
            if (at.isEmpty()) {
                return Duration.ZERO;   // an invalid Expires ("0", a 1-digit hour, a zone but GMT, two lines) is a time in the past
            }
            long from = date(headers.first("Date")).orElse(responseMillis);
            return Duration.ofMillis(Math.max(0, at.get() - from));
        }
        return CachePolicy.HEURISTIC_STATUSES.contains(status) ? heuristic : Duration.ZERO;
    }

    /** Its age at {@code nowMillis} (RFC 9111 section 4.2.3), what the {@code Age} field says when it is served. */
    public Duration age(long nowMillis) {
        long dateValue = date(headers.first("Date")).orElse(responseMillis);
        long apparent = Math.max(0, responseMillis - dateValue);
        long ageValue = 0;
        String age = headers.first("Age");
        if (age != null && !age.isBlank() && age.strip().chars().allMatch(c -> c >= '0' && c <= '9') && age.strip().length() < 11) {
            ageValue = Long.parseLong(age.strip()) * 1000;
        }
        long correctedAge = ageValue + (responseMillis - requestMillis);
        long initial = Math.max(apparent, correctedAge);
        return Duration.ofMillis(initial + Math.max(0, nowMillis - responseMillis));
    }

    /** True while it is fresh at {@code nowMillis}: never after a soft purge. */
    public boolean fresh(long nowMillis, Duration heuristic) {
        return purgedMillis == 0 && lifetime(heuristic).compareTo(age(nowMillis)) > 0;
    }

    /** How long past its freshness it is at {@code nowMillis}; zero or negative while fresh. After a soft purge, at least since it. */
    public Duration staleness(long nowMillis, Duration heuristic) {
        Duration past = age(nowMillis).minus(lifetime(heuristic));
        if (purgedMillis == 0) {
            return past;
        }
        Duration since = Duration.ofMillis(Math.max(0, nowMillis - purgedMillis));
        return past.compareTo(since) > 0 ? past : since;
    }

    /**
     * Whether a {@code 304} with these fields may update this answer (RFC 9111 section 4.3.4): one
     * that carries an {@code ETag} selects only an answer with that entity-tag (compared weakly, as
     * a weak one selects too); one without any updates it. A 304 naming another representation
     * updates nothing.
     */
    public boolean selectedBy(Headers notModified) {
        String tag = notModified.first("ETag");
        return tag == null || etag().map(e -> opaque(e).equals(opaque(tag))).orElse(false);
    }

    private static String opaque(String tag) {
        String t = tag.strip();
        return t.startsWith("W/") ? t.substring(2) : t;
    }

    /**
     * The fields that describe the stored bytes themselves: their framing, their coding, the part
     * they are, their digest. A 304 sends no bytes, so it cannot change them (RFC 9111 section 3.2
     * lets a cache keep them); the stored body keeps the fields that are true of it.
     */
    private static final java.util.Set<String> OF_THE_BYTES = java.util.Set.of("content-length", "transfer-encoding", "content-encoding",
            "content-range", "content-md5", "content-digest");

    /** This answer refreshed by a {@code 304}: the 304's fields replace its own of the same name (RFC 9111 section 4.3.4), but {@link #OF_THE_BYTES}. */
    public StoredAnswer refreshedBy(Headers notModified, long requestAt, long responseAt) {
        Headers merged = headers;
        for (String name : notModified.names()) {
            if (OF_THE_BYTES.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                continue;
            }
            merged = merged.without(n -> n.equalsIgnoreCase(name));
            for (String v : notModified.all(name)) {
                merged = merged.plus(name, v);
            }
        }
        return new StoredAnswer(status, merged, body, requestAt, responseAt, varyValues);
    }

    /** An HTTP-date ({@link HttpDate}), in epoch milliseconds; empty when it is not one. */
    static Optional<Long> date(String value) {
        return HttpDate.parse(value == null ? null : value.strip());
    }
}
