package io.loomgate.core.template;

/**
 * A value that cannot be put where a template puts it: {@code ..} as a path segment, a line break
 * in a header. The message names the placeholder and says why; it is safe to show a client.
 */
public final class UnsafeValue extends Exception {

    private final Placeholder placeholder;

    UnsafeValue(Placeholder placeholder, String why) {
        super(placeholder + " " + why, null, false, false);
        this.placeholder = placeholder;
    }

    public Placeholder placeholder() {
        return placeholder;
    }
}
