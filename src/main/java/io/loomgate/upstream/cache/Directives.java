package io.loomgate.upstream.cache;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/** The cache directives of one response as a parser finds them ({@link CacheControl}, {@link TargetedControl}), then {@link #build}. */
final class Directives {

    Optional<Duration> maxAge = Optional.empty();
    Optional<Duration> sMaxAge = Optional.empty();
    Optional<Duration> staleWhileRevalidate = Optional.empty();
    Optional<Duration> staleIfError = Optional.empty();
    boolean noStore;
    boolean noCache;
    boolean isPrivate;
    boolean isPublic;
    boolean mustRevalidate;
    final Set<String> personal = new LinkedHashSet<>();

    CacheControl build() {
        return new CacheControl(maxAge, sMaxAge, noStore, noCache, isPrivate, isPublic, mustRevalidate, staleWhileRevalidate,
                staleIfError, personal);
    }
}
