package io.loomgate.rewrite;

import io.loomgate.http.HttpError;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A proxy route's {@code "rewrite": {"regex": "^old/(.*)$", "replace": "new/$1"}}: applied to the
 * raw path below the route's prefix (without the query) before it is appended to the upstream's URL
 * (Envoy's {@code regex_rewrite}, Spring Cloud Gateway's {@code RewritePath}).
 *
 * <p>A hostile path cannot make it run away. The input is bounded (a path below the prefix of at
 * most {@link #MAX_INPUT} characters; a longer one is refused), and so is the work: the regex reads
 * its input through a sequence that counts every character it looks at, and a match that looks at
 * more than {@link #MAX_STEPS} is stopped and the request refused, whatever the pattern
 * (java.util.regex backtracks: {@code ^(.*a){12}$} on 26 {@code a}s and a {@code !} takes 1.5 s on
 * this project's machines unbounded; bounded, it is refused at once). At load, the pattern must compile and its replacement name only groups it has.
 *
 * @param regex   the pattern, matched against the whole path below the prefix ({@code find}, as Envoy does)
 * @param replace the replacement, with {@code $1}... for groups
 */
public record PathRewrite(Pattern regex, String replace) {

    /** The longest path below a prefix the rewrite reads. */
    public static final int MAX_INPUT = 4096;
    /** The most characters a match may look at, counting backtracking: linear patterns use a few per character. */
    public static final long MAX_STEPS = 200_000;

    public PathRewrite {
        Objects.requireNonNull(regex, "regex");
        Objects.requireNonNull(replace, "replace");
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with the pattern or the replacement
     */
    public static PathRewrite of(String regex, String replace) {
        Pattern p;
        try {
            p = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("is not a regular expression: " + e.getDescription());
        }
        int groups = p.matcher("").groupCount();
        Matcher refs = Pattern.compile("(?<!\\\\)\\$(?:(\\d+)|\\{(\\w+)})").matcher(replace);
        while (refs.find()) {   // a $2 the pattern lacks fails here, not on a request
            boolean known = refs.group(1) != null ? Integer.parseInt(refs.group(1)) <= groups : p.namedGroups().containsKey(refs.group(2));
            if (!known) {
                throw new IllegalArgumentException("has a replacement that names a group the pattern does not have: " + replace);
            }
        }
        return new PathRewrite(p, replace);
    }

    /** {@code below} rewritten; unchanged when the pattern does not match. */
    public String apply(String below) {
        if (below.length() > MAX_INPUT) {
            throw new HttpError(414, "uri_too_long", "the path is too long to rewrite");
        }
        Counted input = new Counted(below);
        try {
            Matcher m = regex.matcher(input);
            return m.find() ? m.replaceFirst(replace) : below;
        } catch (TooMuchWork e) {
            throw HttpError.badRequest("bad_path", "the path takes too long to rewrite");
        }
    }

    private static final class TooMuchWork extends RuntimeException {
        TooMuchWork() {
            super(null, null, false, false);
        }
    }

    /** The path as the regex reads it, each character it looks at counted. */
    private static final class Counted implements CharSequence {
        private final String s;
        private long steps;

        Counted(String s) {
            this.s = s;
        }

        @Override
        public char charAt(int i) {
            if (++steps > MAX_STEPS) {
                throw new TooMuchWork();
            }
            return s.charAt(i);
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return s.subSequence(from, to);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
