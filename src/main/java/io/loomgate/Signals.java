package io.loomgate;

import java.lang.System.Logger.Level;

/**
 * SIGHUP reloads the configuration. SIGTERM and SIGINT start a graceful shutdown and then exit with status 0. A plain shutdown hook
 * is not enough: the JVM would exit with 143 (128 + SIGTERM), which supervisors read as a crash.
 * {@code sun.misc.Signal} (module jdk.unsupported) is the JDK's only way to handle a signal; javac
 * warns about it, and this class is its only user.
 */
final class Signals {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private Signals() {
    }

    /** On SIGUSR1, runs {@code reopen}: the access-log file is opened again after a rotation. */
    static void onUser1(Runnable reopen) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("USR1"), signal -> reopen.run());
        } catch (IllegalArgumentException unavailable) {
            LOG.log(Level.WARNING, "SIGUSR1 cannot be handled, so it cannot reopen the access log: " + unavailable.getMessage());
        }
    }

    /** On SIGHUP, runs {@code reload} (on a thread of its own: a signal handler must not block). */
    static void onHangup(Runnable reload) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal ->
                    Thread.ofVirtual().name("loomgate-reload").start(reload));
        } catch (IllegalArgumentException unavailable) {
            LOG.log(Level.WARNING, "SIGHUP is ignored in this process (started under nohup?), so it cannot ask for a"
                    + " reload; --watch and POST /admin/reload still can (" + unavailable.getMessage() + ")");
        }
    }

    /** On SIGTERM or SIGINT, runs {@code shutdown} and exits 0; other exits still run it through a hook. */
    static void onTermination(Runnable shutdown) {
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "loomgate-shutdown-hook"));
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    LOG.log(Level.INFO, "received SIG" + name + ": draining");
                    // The JDK runs signal handlers on a daemon thread: once the server's own threads
                    // stop, the JVM would exit mid-drain. A non-daemon thread keeps it alive to the end.
                    Thread.ofPlatform().daemon(false).name("loomgate-drain").start(() -> {
                        shutdown.run();
                        System.exit(0);
                    });
                });
            } catch (IllegalArgumentException unavailable) {
                // e.g. INT under `nohup` or with -Xrs: the shutdown hook still drains on exit.
                LOG.log(Level.DEBUG, "cannot handle SIG" + name + ": " + unavailable.getMessage());
            }
        }
    }
}
