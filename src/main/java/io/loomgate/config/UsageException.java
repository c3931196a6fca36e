package io.loomgate.config;

/**
 * A command line or environment that loomgate cannot run with. The message is one line, ready to
 * print after {@code loomgate: }; the process then exits with {@link #EXIT_CODE}.
 */
public final class UsageException extends Exception {

    /** The exit code for every usage error. */
    public static final int EXIT_CODE = 2;

    public UsageException(String message) {
        super(message, null, false, false);
    }
}
