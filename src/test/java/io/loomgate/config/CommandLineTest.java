package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandLineTest {

    private static Config parse(Map<String, String> env, String... args) throws UsageException {
        return assertInstanceOf(CommandLine.Run.class, CommandLine.parse(List.of(args), env)).config();
    }

    private static String error(Map<String, String> env, String... args) {
        return assertThrows(UsageException.class, () -> CommandLine.parse(List.of(args), env)).getMessage();
    }

    @Test
    void defaultsMatchTheDocumentedTable() throws UsageException {
        Config c = parse(Map.of());
        ServerOptions s = c.server();
        assertEquals("127.0.0.1", s.host());
        assertEquals(8080, s.port());
        assertEquals(ThreadMode.VIRTUAL, s.threads());
        assertEquals(200, s.pool());
        assertEquals(4096, s.backlog());
        assertEquals(Duration.ofSeconds(10), s.shutdownGrace());
        assertEquals(10_000, s.maxInflight());
        assertEquals(Duration.ofSeconds(5), s.readTimeout());
        assertEquals(Duration.ofSeconds(30), s.idleTimeout());
        assertEquals(Duration.ofSeconds(2), c.services().timeout());
        assertEquals(Duration.ofSeconds(30), c.services().maxTimeout());
        assertEquals(Map.of(), c.services().latencies());
        assertEquals(Map.of(), c.services().failureRates());
        assertEquals(OptionalLong.empty(), c.services().seed());
        assertEquals(Duration.ZERO, c.observability().metricsLog());
        assertEquals(io.loomgate.config.AccessLogMode.OFF, c.observability().accessLog());
        assertFalse(c.observability().debugEndpoints());
    }

    @Test
    void everyFlagIsReadFromTheCommandLine() throws UsageException {
        Config c = parse(Map.of(),
                "--host", "0.0.0.0", "--port=0", "--threads", "platform", "--pool", "8", "--backlog", "128",
                "--shutdown-grace", "5s", "--max-inflight", "50", "--read-timeout", "3s", "--idle-timeout", "1m",
                "--timeout", "300ms", "--max-timeout", "1m", "--latency", "db=100ms,cache=20ms",
                "--failure-rate", "file-flaky=0.5", "--seed", "42", "--metrics-log", "2s", "--access-log",
                "--debug-endpoints=true");
        ServerOptions s = c.server();
        assertEquals("0.0.0.0", s.host());
        assertEquals(0, s.port());
        assertEquals(ThreadMode.PLATFORM, s.threads());
        assertEquals(8, s.pool());
        assertEquals(128, s.backlog());
        assertEquals(Duration.ofSeconds(5), s.shutdownGrace());
        assertEquals(50, s.maxInflight());
        assertEquals(Duration.ofSeconds(3), s.readTimeout());
        assertEquals(Duration.ofMinutes(1), s.idleTimeout());
        assertEquals(Duration.ofMillis(300), c.services().timeout());
        assertEquals(Duration.ofMinutes(1), c.services().maxTimeout());
        assertEquals(Map.of("db", Latency.fixed(Duration.ofMillis(100)), "cache", Latency.fixed(Duration.ofMillis(20))),
                c.services().latencies());
        assertEquals(Map.of("file-flaky", 0.5), c.services().failureRates());
        assertEquals(OptionalLong.of(42), c.services().seed());
        assertEquals(Duration.ofSeconds(2), c.observability().metricsLog());
        assertEquals(io.loomgate.config.AccessLogMode.TEXT, c.observability().accessLog());
        assertTrue(c.observability().debugEndpoints());
    }

    @Test
    void everyFlagFallsBackToItsEnvironmentVariable() throws UsageException {
        Config c = parse(Map.ofEntries(
                Map.entry("LOOMGATE_HOST", "::1"), Map.entry("LOOMGATE_PORT", "9090"),
                Map.entry("LOOMGATE_THREADS", "platform"), Map.entry("LOOMGATE_POOL", "16"),
                Map.entry("LOOMGATE_BACKLOG", "64"), Map.entry("LOOMGATE_SHUTDOWN_GRACE", "5s"),
                Map.entry("LOOMGATE_MAX_INFLIGHT", "0"), Map.entry("LOOMGATE_READ_TIMEOUT", "2s"),
                Map.entry("LOOMGATE_IDLE_TIMEOUT", "5s"), Map.entry("LOOMGATE_TIMEOUT", "1s"),
                Map.entry("LOOMGATE_MAX_TIMEOUT", "10s"), Map.entry("LOOMGATE_LATENCY", "db=1s"),
                Map.entry("LOOMGATE_FAILURE_RATE", "db=1"), Map.entry("LOOMGATE_SEED", "-7"),
                Map.entry("LOOMGATE_METRICS_LOG", "500ms"), Map.entry("LOOMGATE_ACCESS_LOG", "yes"),
                Map.entry("LOOMGATE_DEBUG_ENDPOINTS", "1")));
        assertEquals("::1", c.server().host());
        assertEquals(9090, c.server().port());
        assertEquals(ThreadMode.PLATFORM, c.server().threads());
        assertEquals(16, c.server().pool());
        assertEquals(64, c.server().backlog());
        assertEquals(Duration.ofSeconds(5), c.server().shutdownGrace());
        assertEquals(0, c.server().maxInflight());
        assertEquals(Duration.ofSeconds(2), c.server().readTimeout());
        assertEquals(Duration.ofSeconds(5), c.server().idleTimeout());
        assertEquals(Duration.ofSeconds(1), c.services().timeout());
        assertEquals(Duration.ofSeconds(10), c.services().maxTimeout());
        assertEquals(Map.of("db", Latency.fixed(Duration.ofSeconds(1))), c.services().latencies());
        assertEquals(Map.of("db", 1.0), c.services().failureRates());
        assertEquals(OptionalLong.of(-7), c.services().seed());
        assertEquals(Duration.ofMillis(500), c.observability().metricsLog());
        assertEquals(io.loomgate.config.AccessLogMode.TEXT, c.observability().accessLog());
        assertTrue(c.observability().debugEndpoints());
    }

    @Test
    void theCommandLineBeatsTheEnvironment() throws UsageException {
        Map<String, String> env = Map.of("LOOMGATE_THREADS", "platform", "LOOMGATE_SHUTDOWN_GRACE", "5s",
                "LOOMGATE_ACCESS_LOG", "true");
        Config c = parse(env, "--threads", "virtual", "--access-log=false");
        assertEquals(ThreadMode.VIRTUAL, c.server().threads());
        assertEquals(io.loomgate.config.AccessLogMode.OFF, c.observability().accessLog());
        assertEquals(Duration.ofSeconds(5), c.server().shutdownGrace(), "untouched flags keep the env value");
    }

    @Test
    void aBadEnvironmentValueIsHarmlessWhenTheFlagOverridesIt() throws UsageException {
        assertEquals(1234, parse(Map.of("LOOMGATE_PORT", "nope"), "--port", "1234").server().port());
    }

    @Test
    void aLatencyCanHaveASlowTail() throws UsageException {
        Config c = parse(Map.of(), "--latency", "api=10ms,p99=1s,db=300ms");
        Latency api = c.services().latencies().get("api");
        assertEquals(Duration.ofMillis(10), api.typical());
        assertEquals(Duration.ofSeconds(1), api.tail());
        assertEquals(0.01, api.tailShare(), 1e-9);
        assertEquals("10ms,p99=1s", api.format());
        assertEquals(Latency.fixed(Duration.ofMillis(300)), c.services().latencies().get("db"));
        assertEquals("--latency puts p99 where it does not follow a NAME=DURATION to give a tail to,"
                        + " as in api=10ms,p99=1s, got 'p99=1s'",
                assertThrows(UsageException.class, () -> parse(Map.of(), "--latency", "p99=1s")).getMessage());
        assertThrows(UsageException.class, () -> parse(Map.of(), "--latency", "api=10ms,p99=1s,p99.9=2s"));
        assertThrows(UsageException.class, () -> parse(Map.of(), "--latency", "api=10ms,p0=1s"));
    }

    @Test
    void repeatedServiceFlagsMerge() throws UsageException {
        Config c = parse(Map.of(), "--latency", "db=1s", "--latency", "cache=2s");
        assertEquals(Map.of("db", Latency.fixed(Duration.ofSeconds(1)), "cache", Latency.fixed(Duration.ofSeconds(2))),
                c.services().latencies());
    }

    @Test
    void helpAndVersionWinOverEverythingElse() throws UsageException {
        assertInstanceOf(CommandLine.ShowHelp.class, CommandLine.parse(List.of("--port", "x", "--help"), Map.of()));
        assertInstanceOf(CommandLine.ShowHelp.class, CommandLine.parse(List.of("-h"), Map.of()));
        assertInstanceOf(CommandLine.ShowVersion.class, CommandLine.parse(List.of("--version", "--bogus"), Map.of()));
    }

    @Test
    void helpListsEveryFlagWithItsDefaultAndEnvironmentVariable() {
        String help = CommandLine.help();
        for (Flag f : Flag.values()) {
            assertTrue(help.contains(f.option() + " " + f.valueHint()), f.option());
            assertTrue(help.contains("env " + f.env()), f.env());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            --threads bogus          | --threads must be 'virtual' or 'platform', got 'bogus'
            --port 99999             | --port must be an integer in 0..65535, got '99999'
            --port -1                | --port must be an integer in 0..65535, got '-1'
            --port 80x               | --port must be an integer in 0..65535, got '80x'
            --pool 0                 | --pool must be an integer in 1..10000, got '0'
            --backlog 0              | --backlog must be an integer in 1..1000000, got '0'
            --shutdown-grace 5       | --shutdown-grace must be a duration such as 300ms, 1.5s, 2m or 1h, got '5'
            --shutdown-grace 2h      | --shutdown-grace must be between 0ms and 1h, got '2h'
            --shutdown-grace -1s     | --shutdown-grace must be a duration such as 300ms, 1.5s, 2m or 1h, got '-1s'
            --max-inflight -5        | --max-inflight must be an integer in 0..10000000, got '-5'
            --read-timeout 1500ms    | --read-timeout must be whole seconds (the JDK server counts this in seconds), got '1500ms'
            --idle-timeout 0         | --idle-timeout must be between 1s and 1h, got '0'
            --timeout 0              | --timeout must be between 1ms and 1h, got '0'
            --timeout 40s            | --timeout must not exceed --max-timeout (30s), got '40s'
            --latency db             | --latency must be NAME=DURATION[,NAME=DURATION...], got 'db'
            --latency db=2m          | --latency must be NAME=DURATION[,NAME=DURATION...] with DURATION between 0ms and 1m, got 'db=2m'
            --failure-rate db=1.5    | --failure-rate must be NAME=P[,NAME=P...] with P between 0.0 and 1.0, got 'db=1.5'
            --failure-rate db=x      | --failure-rate must be NAME=P[,NAME=P...] with P a number between 0 and 1, got 'db=x'
            --seed abc               | --seed must be an integer, got 'abc'
            --metrics-log 50ms       | --metrics-log must be 0 (off) or at least 100ms, got '50ms'
            --access-log=maybe       | --access-log must be off, text or json, got 'maybe'
            --bogus                  | unknown flag '--bogus' (see --help)
            --port                   | --port needs a value (PORT)
            --port --threads virtual | --port needs a value (PORT)
            stray                    | unexpected argument 'stray' (flags start with --; see --help)
            """)
    void badValuesNameTheFlagTheValueAndWhatIsAccepted(String args, String message) {
        assertEquals(message, error(Map.of(), args.split(" ")));
    }

    @Test
    void environmentErrorsNameTheVariable() {
        assertEquals("LOOMGATE_THREADS must be 'virtual' or 'platform', got 'green'",
                error(Map.of("LOOMGATE_THREADS", "green")));
    }

    @Test
    void echoedValuesAreShortAndPrintable() {
        String message = error(Map.of(), "--threads", "x".repeat(500) + "\u0007");
        assertTrue(message.length() < 120, message);
        assertTrue(message.endsWith("...'"), message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            --access-log true                  | TEXT  | false
            --access-log false                 | OFF   | false
            --access-log                       | TEXT  | false
            --access-log=true                  | TEXT  | false
            --access-log yes --debug-endpoints | TEXT  | true
            --debug-endpoints on --access-log  | TEXT  | true
            --debug-endpoints false            | OFF   | false
            --access-log json --port 0         | JSON  | false
            --access-log text                  | TEXT  | false
            --access-log off                   | OFF   | false
            """)
    void booleanFlagsTakeTrueOrFalseOrStandAlone(String args, io.loomgate.config.AccessLogMode accessLog, boolean debug)
            throws UsageException {
        Config c = CommandLine.config(args.split(" "));
        assertEquals(accessLog, c.observability().accessLog());
        assertEquals(debug, c.observability().debugEndpoints());
    }

    @Test
    void aSwitchDoesNotSwallowTheNextFlag() throws UsageException {
        Config c = CommandLine.config("--access-log", "--port", "0");
        assertEquals(io.loomgate.config.AccessLogMode.TEXT, c.observability().accessLog());
        assertEquals(0, c.server().port());
    }

    @Test
    void printRoutesIsAnActionWithTheRestOfTheFlags() throws UsageException {
        var invocation = CommandLine.parse(List.of("--print-routes", "--latency", "db=5ms"), Map.of());
        var print = assertInstanceOf(CommandLine.PrintRoutes.class, invocation);
        assertEquals(Map.of("db", Latency.fixed(Duration.ofMillis(5))), print.config().services().latencies());
    }

    @Test
    void aRouteFileMustExist() {
        assertEquals("--routes must be a readable route file, got 'no/such/routes.json'",
                error(Map.of(), "--routes", "no/such/routes.json"));
    }

    @Test
    void usageErrorsExitWithCodeTwo() {
        assertEquals(2, UsageException.EXIT_CODE);
    }

    @Test
    void platformModeDescribesItsPool() throws UsageException {
        assertEquals("threads=platform pool=8", CommandLine.config("--threads", "platform", "--pool", "8")
                .server().describeThreads());
        assertEquals("threads=virtual", CommandLine.config().server().describeThreads());
    }
}
