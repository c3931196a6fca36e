package io.loomgate.upstream;

/**
 * Where the try running now went, for an upstream with several endpoints: the upstream notes the
 * endpoint it chose ({@link #tried}), and the retry layer, which numbers the tries, reads it for the
 * request's timeline. A call to a one-URL upstream binds no note, and noting is then a no-op.
 */
public final class EndpointNote {

    static final ScopedValue<EndpointNote> CURRENT = ScopedValue.newInstance();

    private volatile String endpoint = "";

    /** The try running on this thread went to {@code endpoint} ({@code 10.0.0.5:8080}). */
    public static void tried(String endpoint) {
        if (CURRENT.isBound()) {
            CURRENT.get().endpoint = endpoint;
        }
    }

    /** The endpoint the last try went to, and forgets it; empty when no try noted one. */
    String take() {
        String e = endpoint;
        endpoint = "";
        return e;
    }
}
