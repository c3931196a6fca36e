package io.loomgate.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Turns the command line and the environment into what to do: run with a {@link Config}, or print
 * help or the version. Flags take {@code --name value} or {@code --name=value}; switches
 * ({@code --access-log}) may stand alone. For every flag the command line beats
 * {@code LOOMGATE_<FLAG>}, which beats the default.
 *
 * <pre>{@code
 * Config c = CommandLine.config("--port", "0", "--threads", "platform");
 * }</pre>
 */
public final class CommandLine {

    /** What the process should do. */
    public sealed interface Invocation permits Run, PrintRoutes, Check, ShowHelp, ShowVersion {
    }

    /** {@code loomgate check FILE... [flags]}: check route files as a start would, bind nothing, exit 0 or 2. */
    public record Check(List<Path> files, Config config) implements Invocation {
        public Check {
            files = List.copyOf(files);
        }
    }

    /** Start the gateway. */
    public record Run(Config config) implements Invocation {
    }

    /** Print the effective route table as JSON and exit 0. */
    public record PrintRoutes(Config config) implements Invocation {
    }

    /** Print {@link #help()} and exit 0. */
    public record ShowHelp() implements Invocation {
    }

    /** Print the version and exit 0. */
    public record ShowVersion() implements Invocation {
    }

    private static final Duration MAX_DURATION = Duration.ofHours(1);
    private static final String PRINT_ROUTES = "--print-routes";
    private static final String BACKEND = "backend";
    private static final String CHECK = "check";

    private CommandLine() {
    }

    /** Parses {@code args} and {@code env}. {@code --help} and {@code --version} win over everything else. */
    public static Invocation parse(List<String> args, Map<String, String> env) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            return new ShowHelp();
        }
        if (args.contains("--version")) {
            return new ShowVersion();
        }
        if (!args.isEmpty() && args.getFirst().equals(CHECK)) {
            List<String> files = args.subList(1, args.size()).stream().takeWhile(a -> !a.startsWith("--")).toList();
            if (files.isEmpty()) {
                throw new UsageException("check needs the route files to check: loomgate check FILE... [flags]");
            }
            if (!(parse(args.subList(1 + files.size(), args.size()), env) instanceof Run(Config config))) {
                throw new UsageException("check takes route files and the flags of a start, not --print-routes");
            }
            return new Check(files.stream().map(Path::of).toList(), config);
        }
        Role role = !args.isEmpty() && args.getFirst().equals(BACKEND) ? Role.BACKEND : Role.GATEWAY;
        List<String> flags = role == Role.BACKEND ? args.subList(1, args.size()) : args;
        Map<Flag, Setting> settings = new EnumMap<>(Flag.class);
        for (Flag f : Flag.values()) {
            String fromEnv = env.get(f.env());
            String dflt = f == Flag.PORT ? role.defaultPort() : f.defaultValue();
            if (f == Flag.SERVER) {
                dflt = System.getProperty("loomgate.server", dflt);   // the test suite runs a second time on the other server
            }
            settings.put(f, fromEnv != null
                    ? new Setting(fromEnv, f.env())
                    : new Setting(dflt, "default " + f.option()));
        }
        List<String> rest = flags.stream().filter(a -> !a.equals(PRINT_ROUTES)).toList();
        readArguments(rest, settings);
        Config config = build(settings, role, env);
        return rest.size() < flags.size() ? new PrintRoutes(config) : new Run(config);
    }

    /** A config from flags alone, ignoring the environment: for tests and embedding. */
    public static Config config(String... args) throws UsageException {
        if (parse(List.of(args), Map.of()) instanceof Run(Config config)) {
            return config;
        }
        throw new UsageException("--help and --version do not make a config");
    }

    private static void readArguments(List<String> args, Map<Flag, Setting> settings) throws UsageException {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + Setting.echo(arg) + "' (flags start with --; see --help)");
            }
            int eq = arg.indexOf('=');
            String option = eq < 0 ? arg : arg.substring(0, eq);
            Optional<Flag> known = Flag.fromOption(option);
            if (known.isEmpty()) {
                throw new UsageException("unknown flag '" + Setting.echo(option) + "' (see --help)");
            }
            Flag flag = known.get();
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag.isSwitch()) {
                boolean valueFollows = i + 1 < args.size() && flag.takes(args.get(i + 1));
                value = valueFollows ? args.get(++i) : "true";
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new UsageException(option + " needs a value (" + flag.valueHint() + ")");
            }
            Setting previous = settings.get(flag);
            boolean mergeable = flag == Flag.LATENCY || flag == Flag.FAILURE_RATE;
            if (mergeable && previous.origin().equals(option) && !value.isBlank()) {
                value = previous.value() + "," + value;
            }
            settings.put(flag, new Setting(value, option));
        }
    }

    private static Config build(Map<Flag, Setting> s, Role role, Map<String, String> env) throws UsageException {
        ServerOptions server = new ServerOptions(
                s.get(Flag.HOST).text(),
                s.get(Flag.PORT).integer(0, 65_535),
                s.get(Flag.THREADS).threadMode(),
                s.get(Flag.POOL).integer(1, 10_000),
                s.get(Flag.BACKLOG).integer(1, 1_000_000),
                s.get(Flag.SHUTDOWN_GRACE).duration(Duration.ZERO, MAX_DURATION),
                s.get(Flag.DRAIN_DELAY).duration(Duration.ZERO, MAX_DURATION),
                s.get(Flag.MAX_INFLIGHT).integer(0, 10_000_000),
                s.get(Flag.READ_TIMEOUT).wholeSeconds(Duration.ofSeconds(1), MAX_DURATION),
                s.get(Flag.IDLE_TIMEOUT).wholeSeconds(Duration.ofSeconds(1), MAX_DURATION),
                maxConnections(s),
                s.get(Flag.SERVER).serverKind(),
                maxPerAddress(s),
                maxTunnels(s));

        Duration maxTimeout = s.get(Flag.MAX_TIMEOUT).duration(Duration.ofMillis(1), MAX_DURATION);
        Setting timeoutSetting = s.get(Flag.TIMEOUT);
        Duration timeout = timeoutSetting.duration(Duration.ofMillis(1), MAX_DURATION);
        if (timeout.compareTo(maxTimeout) > 0) {
            throw timeoutSetting.bad("must not exceed --max-timeout (" + Durations.format(maxTimeout) + ")");
        }
        Setting seed = s.get(Flag.SEED);
        ServiceOptions services = new ServiceOptions(
                s.get(Flag.LATENCY).serviceLatencies(),
                s.get(Flag.FAILURE_RATE).serviceRates(),
                seed.value().isEmpty() ? OptionalLong.empty() : OptionalLong.of(seed.longValue()),
                timeout,
                maxTimeout,
                s.get(Flag.LATENCY).origin(),
                s.get(Flag.FAILURE_RATE).origin());

        Setting metricsLog = s.get(Flag.METRICS_LOG);
        Duration interval = metricsLog.duration(Duration.ZERO, MAX_DURATION);
        if (!interval.isZero() && interval.toMillis() < 100) {
            throw metricsLog.bad("must be 0 (off) or at least 100ms");
        }
        ObservabilityOptions observability = new ObservabilityOptions(
                interval, s.get(Flag.ACCESS_LOG).accessLogMode(), optionalFile(s.get(Flag.ACCESS_LOG_FILE)),
                s.get(Flag.DEBUG_ENDPOINTS).bool(), adminPort(s, server), s.get(Flag.ADMIN_HOST).text(),
                AdminNames.read(s.get(Flag.ADMIN_NAMES)),
                otlpEndpoint(s.get(Flag.OTLP_ENDPOINT)), s.get(Flag.TRACE_SAMPLE).ratio(0, 1));
        return new Config(server, services, observability, EdgeFlags.read(s, env), routeFile(s.get(Flag.ROUTES)), role,
                s.get(Flag.WATCH).bool());
    }

    /** {@code --max-connections}, or what the heap and the file-descriptor limit allow ({@link ConnectionBudget}). */
    private static int maxConnections(Map<Flag, Setting> s) throws UsageException {
        Setting max = s.get(Flag.MAX_CONNECTIONS);
        if (!max.value().equals("auto")) {
            return max.integer(1, 10_000_000);
        }
        boolean tls = !s.get(Flag.TLS_CERT).value().isEmpty() || !s.get(Flag.TLS_KEYSTORE).value().isEmpty();
        return ConnectionBudget.forThisJvm(s.get(Flag.SERVER).serverKind(), tls);
    }

    /** {@code --max-connections-per-address}, or a tenth of {@code --max-connections}, at least 64. */
    private static int maxPerAddress(Map<Flag, Setting> s) throws UsageException {
        Setting per = s.get(Flag.MAX_CONNECTIONS_PER_ADDRESS);
        if (!per.value().equals("auto")) {
            return per.integer(0, 10_000_000);
        }
        return Math.max(64, maxConnections(s) / 10);
    }

    /** {@code --max-tunnels}, or a quarter of {@code --max-connections}, at least 16. */
    private static int maxTunnels(Map<Flag, Setting> s) throws UsageException {
        Setting max = s.get(Flag.MAX_TUNNELS);
        if (!max.value().equals("auto")) {
            return max.integer(0, 10_000_000);
        }
        return Math.max(16, maxConnections(s) / 4);
    }

    private static OptionalInt adminPort(Map<Flag, Setting> s, ServerOptions server) throws UsageException {
        Setting admin = s.get(Flag.ADMIN_PORT);
        if (admin.value().isEmpty()) {
            return OptionalInt.empty();
        }
        int port = admin.integer(0, 65_535);
        if (port != 0 && port == server.port()) {
            throw admin.bad("must differ from --port (" + server.port() + ")");
        }
        return OptionalInt.of(port);
    }

    private static Optional<Path> routeFile(Setting routes) throws UsageException {
        if (routes.value().isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(routes.value());
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw routes.bad("must be a readable route file");
        }
        return Optional.of(path);
    }

    /** {@code --otlp-endpoint}: an http:// or https:// URL with a host. */
    private static Optional<java.net.URI> otlpEndpoint(Setting endpoint) throws UsageException {
        if (endpoint.value().isEmpty()) {
            return Optional.empty();
        }
        try {
            java.net.URI uri = new java.net.URI(endpoint.value());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getRawQuery() == null && uri.getRawFragment() == null) {
                return Optional.of(uri);
            }
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        throw endpoint.bad("must be an http:// or https:// URL with a host, such as http://127.0.0.1:4318");
    }

    /** {@code --access-log-file}: a file that is there or can be made, in a folder that is there. */
    private static Optional<Path> optionalFile(Setting file) throws UsageException {
        if (file.value().isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(file.value()).toAbsolutePath();
        if (Files.isDirectory(path) || !Files.isDirectory(path.getParent()) || (Files.exists(path) && !Files.isWritable(path))) {
            throw file.bad("must be a writable file in a folder that exists");
        }
        return Optional.of(path);
    }

    /** The {@code --help} text, generated from {@link Flag}. */
    public static String help() {
        StringBuilder sb = new StringBuilder("""
                usage: java --enable-preview -jar loomgate.jar [backend] [flags]
                       java --enable-preview -jar loomgate.jar check FILE... [flags]
                       scripts/run [flags]
                       scripts/backend [flags]      (the same as: scripts/run backend [flags])

                loomgate: a structured-concurrency aggregation gateway on the JDK's HttpServer.
                'backend' starts the bundled backend instead: the simulated services over HTTP, one
                path each (/db, /file, /compute, /cache, ...) and /api/data (100 ms), on port 9090.
                'check' reads and checks route files as a start would, with the same flags, binds
                nothing, calls no upstream, prints each plan in short and exits 0, or 2 with the errors.

                flags (each also read from the environment variable shown; the command line wins):
                """);
        for (Flag f : Flag.values()) {
            String left = "  " + f.option() + " " + f.valueHint();
            sb.append(String.format("%-36s %s%n", left, f.help()));
            String dflt = f.defaultValue().isEmpty() ? "none" : f.defaultValue();
            sb.append(String.format("%-36s default %s; env %s%n", "", dflt, f.env()));
        }
        sb.append(String.format("%-36s %s%n", "  --print-routes", "print the effective route table as JSON and exit 0"));
        sb.append(String.format("%-36s %s%n", "  --help, --version", "print this text, or the version, and exit 0"));
        sb.append("""

                --flag value and --flag=value both work; BOOL flags take true or false, and alone mean true.
                durations: 300ms, 1.5s, 2m, 1h. Bad values exit with code 2.
                """);
        return sb.toString();
    }
}
