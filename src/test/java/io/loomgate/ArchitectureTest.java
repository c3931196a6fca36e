package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package picture, read from the sources: which package of {@code io.loomgate} uses which. The
 * core never reaches into the demo; only the composition root ({@code io.loomgate}) knows both.
 */
class ArchitectureTest {

    private static final Path MAIN = Path.of("src/main/java/io/loomgate");
    private static final Pattern USE = Pattern.compile("\\bio\\.loomgate\\.((?:[a-z]+\\.)*[a-z]+)\\.([A-Z]\\w*)");
    private static final Set<String> CORE = Set.of("core.fanout", "api", "core.call", "core.compose", "config", "http", "json",
            "observe.metrics", "upstream.http", "plan", "edge.routing", "edge.listener", "core.template", "observe.timeline", "upstream");

    /** package → the packages its files name (imports and fully qualified uses), and the classes they name. */
    private record Uses(Map<String, Set<String>> packages, Map<String, Set<String>> classes) {
    }

    private static Uses uses() throws IOException {
        Map<String, Set<String>> packages = new TreeMap<>();
        Map<String, Set<String>> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path dir = MAIN.relativize(f.getParent());
                String pkg = dir.toString().isEmpty() ? "(root)" : dir.toString().replace('/', '.');
                String text = Files.readString(f);
                packages.computeIfAbsent(pkg, k -> new TreeSet<>());
                classes.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = USE.matcher(text.substring(text.indexOf(';') + 1));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        packages.get(pkg).add(m.group(1));
                        classes.get(pkg).add(m.group(1) + "." + m.group(2));
                    }
                }
            }
        }
        return new Uses(packages, classes);
    }

    @Test
    void theCoreNeverUsesTheDemo() throws IOException {
        Uses u = uses();
        System.out.println("package picture (package -> the packages it uses):");
        u.packages().forEach((p, deps) -> System.out.println("  " + p + " -> " + deps));
        for (String core : CORE) {
            assertTrue(u.packages().containsKey(core), "no package " + core);
            assertTrue(!u.packages().get(core).contains("demo"), core + " uses the demo: " + u.classes().get(core));
        }
        List<String> demoUsers = u.packages().entrySet().stream()
                .filter(e -> e.getValue().contains("demo")).map(Map.Entry::getKey).toList();
        assertEquals(List.of("(root)"), demoUsers, "only the composition root wires the demo in");
    }

    /**
     * The core is below what it calls: it reaches the upstreams through its own ports
     * ({@code core.port}: Calls, Upstream, Forwarder), and names no upstream, edge, observer, plan or
     * API type. The forwarding port's request carries a proxy route's rules, which are
     * {@code rewrite}'s (built, like the core's own, on {@code core.template}).
     */
    @Test
    void theCoreUsesOnlyItselfAndTheLayersBelowIt() throws IOException {
        Set<String> below = Set.of("config", "http", "json", "trace", "module", "rewrite");
        Uses u = uses();
        Map<String, Set<String>> against = new TreeMap<>();
        u.packages().forEach((pkg, deps) -> {
            if (pkg.startsWith("core.")) {
                for (String d : deps) {
                    if (!d.startsWith("core.") && !below.contains(d)) {
                        against.computeIfAbsent(pkg, k -> new TreeSet<>()).add(d);
                    }
                }
            }
        });
        assertEquals(Map.of(), against, "core packages using a layer above them");
    }

    /**
     * The layers, lowest first, as docs/architecture.md draws them: a package uses only packages of
     * its own layer or below. The metrics sit above what they read (each component's counters), the
     * plan above what it builds, the endpoints above the plan, the composition root on top.
     */
    private static final List<List<String>> LAYERS = List.of(
            List.of("config", "json", "trace", "observe.histogram", "http2.hpack", "grpc"),
            List.of("http"),
            List.of("http1", "http2", "tls", "net", "core.call", "observe.event"),
            List.of("core.template", "core.engine", "module", "client", "observe", "observe.timeline", "observe.log",
                    "observe.otlp", "store.redis", "rewrite"),
            List.of("core.port"),
            List.of("core.fanout", "core.compose", "upstream.cache", "upstream.balance"),
            List.of("upstream"),
            List.of("upstream.http"),
            List.of("edge.server", "edge.routing", "edge.limit", "edge.auth", "edge.cors", "edge.compress", "edge"),
            List.of("edge.pipeline", "edge.admin"),
            List.of("edge.listener"),
            List.of("observe.metrics"),
            List.of("plan"),
            List.of("api"),
            List.of("demo"),
            List.of("(root)"));

    @Test
    void everyPackageHasALayerAndUsesNoneAboveIt() throws IOException {
        Map<String, Integer> rank = new TreeMap<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String p : LAYERS.get(i)) {
                rank.put(p, i);
            }
        }
        List<String> against = new ArrayList<>();
        uses().packages().forEach((pkg, deps) -> {
            assertTrue(rank.containsKey(pkg), pkg + " has no layer: add it to LAYERS and to docs/architecture.md");
            for (String d : deps) {
                if (rank.getOrDefault(d, Integer.MAX_VALUE) > rank.get(pkg)) {
                    against.add(pkg + " -> " + d);
                }
            }
        });
        assertEquals(List.of(), against, "imports against the layers' direction");
    }

    /** The HTTP/1.1 client is transport, as loomgate's server is: the codec, TLS and the HTTP model, nothing of the gateway. */
    @Test
    void theClientKnowsTheCodecAndNothingOfTheGateway() throws IOException {
        Set<String> may = Set.of("config", "http", "http1", "tls", "net", "core.template");
        Set<String> used = new TreeSet<>(uses().packages().get("client"));
        used.removeAll(may);
        assertEquals(Set.of(), used, "the client uses " + used);
    }

    @Test
    void configIsALeafAndMetricsReadsNoConcreteServer() throws IOException {
        Uses u = uses();
        assertEquals(Set.of(), u.packages().get("config"), "config uses no other loomgate package");
        assertTrue(u.classes().get("observe.metrics").stream().noneMatch(c -> c.equals("server.GatewayServer")),
                u.classes().get("observe.metrics").toString());
    }

    @Test
    void thePackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> graph = uses().packages();
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>(List.of(start));
            assertTrue(!reaches(graph, start, start, new TreeSet<>(), path), "a cycle: " + String.join(" -> ", path));
        }
    }

    private static boolean reaches(Map<String, Set<String>> graph, String from, String target, Set<String> seen,
                                   List<String> path) {
        for (String next : graph.getOrDefault(from, Set.of())) {
            path.add(next);
            if (next.equals(target) || (seen.add(next) && reaches(graph, next, target, seen, path))) {
                return true;
            }
            path.removeLast();
        }
        return false;
    }

    @Test
    void onlyTheAdapterTouchesThePreviewApi() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<String> users = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> read(p).contains("StructuredTaskScope."))
                    .map(p -> MAIN.relativize(p).toString()).toList();
            assertEquals(List.of("core/engine/StructuredScope.java"), users);
        }
    }

    /**
     * The core (calls, the engine and policies, composition, templates) imports neither the JDK
     * server's API nor the HTTP/1.1 codec nor the server; outside the server adapter, nothing
     * imports the JDK server's API: one {@code Headers} type, loomgate's own, serves the rest.
     */
    @Test
    void theCoreSeesNoWireTypesAndOnlyTheServerAdapterSeesTheJdkServer() throws IOException {
        List<String> wire = new ArrayList<>();
        List<String> jdkServer = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String rel = MAIN.relativize(f).toString();
                String text = read(f);
                boolean core = rel.startsWith("core/");
                if (core && (text.contains("com.sun.net.httpserver") || text.contains("io.loomgate.upstream.http.")
                        || text.contains("io.loomgate.edge.listener.") || text.contains("io.loomgate.edge.server.")
                        || text.contains("io.loomgate.http1.") || text.contains("io.loomgate.client."))) {
                    wire.add(rel);
                }
                // The adapter uses the API; loomgate's server implements it.
                boolean server = rel.startsWith("edge/listener/") || rel.startsWith("edge/server/");
                if (!server && text.contains("com.sun.net.httpserver")) {
                    jdkServer.add(rel);
                }
            }
        }
        assertEquals(List.of(), wire, "core files that see wire types");
        assertEquals(List.of(), jdkServer, "files outside the server adapter that see the JDK server's API");
    }

    /**
     * The codec and the server stand apart, as Netty's codecs do from their transports: the codec
     * knows no other loomgate package (but the field syntax it shares with the gateway), and the server knows the codec, a few leaf types and
     * the seam it hands the gateway (the HTTP model's Exchange, Headers, Response and AnswerWriter) only, so neither the gateway nor the
     * demo leaks into the HTTP/1.1 rules.
     */
    @Test
    void theCodecAndTheServerKnowNothingOfTheGateway() throws IOException {
        Set<String> serverMay = Set.of("io.loomgate.http1", "io.loomgate.http2", "io.loomgate.net", "io.loomgate.edge.server",
                "io.loomgate.config.AddressRanges", "io.loomgate.core.engine.ConnectionScope",
                "io.loomgate.http.FieldText", "io.loomgate.json.JsonWriter", "io.loomgate.http.Exchange", "io.loomgate.http.Headers",
                "io.loomgate.http.Response", "io.loomgate.http.AnswerWriter", "io.loomgate.http.Trailers",
                "io.loomgate.http.HttpDate");   // RFC 9110 dates, written and read: the Date header
        List<String> wrong = new ArrayList<>();
        Pattern imports = Pattern.compile("^import (io\\.loomgate\\.[\\w.]+);", Pattern.MULTILINE);
        for (String pkg : List.of("http1", "edge/server")) {
            try (Stream<Path> files = Files.list(MAIN.resolve(pkg))) {
                for (Path f : files.toList()) {
                    Matcher m = imports.matcher(read(f));
                    while (m.find()) {
                        String imported = m.group(1);
                        boolean allowed = pkg.equals("http1")
                                ? imported.startsWith("io.loomgate.http1.") || imported.equals("io.loomgate.http.FieldText")
                                : serverMay.stream().anyMatch(imported::startsWith);
                        if (!allowed) {
                            wrong.add(MAIN.relativize(f) + " imports " + imported);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * Metrics are owned by their components: the server's connections, the trace exporter, a breaker,
     * an upstream's endpoints, its cache, its retries and the Redis client each write their own
     * {@code MetricSet}, so {@code observe/metrics} names none of them, nor any package they live in:
     * the registry and the server reach it through small interfaces the composition root fills in.
     * Adding a component touches no file there.
     */
    @Test
    void theMetricsNameNoComponentTheyShow() throws IOException {
        Pattern imports = Pattern.compile("^import (io\\.loomgate\\.(?:upstream|store|edge|client|observe\\.otlp)[\\w.]*);", Pattern.MULTILINE);
        Pattern fullNames = Pattern.compile("io\\.loomgate\\.(?:upstream|store|edge|client|observe\\.otlp)\\.");
        List<String> named = new ArrayList<>();
        try (Stream<Path> files = Files.list(MAIN.resolve("observe/metrics"))) {
            for (Path f : files.toList()) {
                String text = read(f);
                Matcher m = imports.matcher(text);
                while (m.find()) {
                    named.add(MAIN.relativize(f) + " imports " + m.group(1));
                }
                if (fullNames.matcher(text.replaceAll("(?m)^import .*$", "")).find()) {
                    named.add(MAIN.relativize(f) + " names a component by its full name");
                }
            }
        }
        assertEquals(List.of(), named);
    }

    /**
     * The events and their records are a leaf: every part of the gateway tells them, so they use
     * nothing but the vocabulary they carry (the HTTP model and the core's calls).
     */
    @Test
    void theEventsUseOnlyTheVocabularyTheyCarry() throws IOException {
        Set<String> may = Set.of("http", "core.call");
        Set<String> deps = uses().packages().getOrDefault("observe.event", Set.of());
        assertTrue(uses().packages().containsKey("observe.event"), "the events have a package of their own");
        assertEquals(Set.of(), deps.stream().filter(d -> !may.contains(d) && !d.equals("observe.event"))
                .collect(java.util.stream.Collectors.toSet()));
    }

    /** The codec reads and writes bytes and nothing else: no thread of its own (the write watchdog is {@code net}'s). */
    @Test
    void theCodecStartsNoThread() throws IOException {
        List<String> threads = new ArrayList<>();
        try (Stream<Path> files = Files.list(MAIN.resolve("http1"))) {
            for (Path f : files.toList()) {
                String text = read(f);
                if (text.contains("Thread.of") || text.contains("new Thread(") || text.contains("Executors.")) {
                    threads.add(MAIN.relativize(f).toString());
                }
            }
        }
        assertEquals(List.of(), threads, "codec files that start threads");
    }

    /**
     * A route's kind and a fan-out's policy are read once, by the readers, into sealed types
     * ({@code RouteKind}, {@code PolicySpec}); nothing after reading compares them as text.
     */
    @Test
    void noRouteKindOrPolicyIsComparedAsTextOutsideTheReaders() throws IOException {
        Pattern compared = Pattern.compile("(equals|equalsIgnoreCase)\\(\"(compose|proxy|fan-out|single|all|any|quorum|fallback|hedge)\"\\)"
                + "|case \"(compose|proxy|fan-out|single|all|any|quorum|fallback|hedge)\""
                + "|\"(compose|proxy|fan-out|single|all|any|quorum|fallback|hedge)\"\\.equals");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String rel = MAIN.relativize(f).toString();
                boolean reader = rel.startsWith("plan/") || rel.matches(".*(Reader|Reading)\\.java");
                Matcher m = compared.matcher(read(f));
                while (!reader && m.find()) {
                    found.add(rel + ": " + m.group());
                }
            }
        }
        assertEquals(List.of(), found, "route kinds or policies compared as text after reading");
    }

    @Test
    void oneRequestContext() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<String> declared = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> read(p).matches("(?s).*\\b(record|class|interface) RequestContext\\b.*"))
                    .map(p -> MAIN.relativize(p).toString()).toList();
            assertEquals(List.of("core/call/RequestContext.java"), declared);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
