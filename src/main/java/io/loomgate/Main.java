package io.loomgate;

import io.loomgate.config.CommandLine.Invocation;
import io.loomgate.config.CommandLine;
import io.loomgate.config.Config;
import io.loomgate.config.Role;
import io.loomgate.config.UsageException;
import io.loomgate.tls.ServerTls;
import io.loomgate.plan.PlanJson;
import io.loomgate.plan.PlanModules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * The command line: {@code java --enable-preview -jar loomgate.jar [flags]}. Prints exactly one
 * line to stdout once the socket is bound ({@code loomgate listening on http://127.0.0.1:8080
 * (threads=virtual)}); logs go to stderr. Exit codes: 0 after a clean shutdown, help, version or
 * {@code --print-routes}; 1 when the server cannot start; 2 for a bad command line or route file.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        // Before the first virtual thread: the scheduler reads its parallelism once.
        CarrierDefaults.apply(Runtime.getRuntime().availableProcessors(), System.getProperties());
        // One line per log record, on stderr, before any logger exists.
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
        ServerTls.refuseClientRenegotiation();
        Invocation invocation;
        try {
            invocation = CommandLine.parse(List.of(args), System.getenv());
        } catch (UsageException e) {
            usageError(e);
            return;
        }
        switch (invocation) {
            case CommandLine.ShowHelp() -> System.out.print(CommandLine.help());
            case CommandLine.ShowVersion() -> System.out.println("loomgate " + version()
                    + " (Java " + Runtime.version() + ")");
            case CommandLine.PrintRoutes(Config config) -> printRoutes(config);
            case CommandLine.Run(Config config) -> run(config);
            case CommandLine.Check(var files, Config config) -> System.exit(CheckCommand.run(files, config, System.out, System.err));
        }
    }

    private static void printRoutes(Config config) {
        try (PlanModules modules = Modules.open(config)) {
            System.out.print(PlanJson.write(EffectiveRoutes.load(config, modules), modules));
        } catch (UsageException e) {
            usageError(e);
        }
    }

    private static void run(Config config) {
        Loomgate gate;
        try {
            gate = Loomgate.start(config);
        } catch (UsageException e) {
            usageError(e);
            return;
        } catch (IOException | RuntimeException e) {
            System.err.println("loomgate: cannot listen on " + config.server().host() + ":"
                    + config.server().port() + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        Signals.onTermination(gate::shutdown);
        Signals.onHangup(() -> gate.reload("SIGHUP"));
        Signals.onUser1(gate::reopenLogs);
        String line = gate.listeningLine();
        System.out.println(config.role() == Role.BACKEND ? line.replaceFirst("^loomgate ", "loomgate backend ") : line);
        System.out.flush();
    }

    private static void usageError(UsageException e) {
        System.err.println("loomgate: " + e.getMessage());
        System.exit(UsageException.EXIT_CODE);
    }

    /** The version Maven stamped into the jar. */
    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
