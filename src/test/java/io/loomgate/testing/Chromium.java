package io.loomgate.testing;

import io.loomgate.json.JsonParser;
import io.loomgate.json.JsonWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol, on the JDK's own WebSocket client: open a
 * page, evaluate JavaScript in it, and collect what it logged as an error. Enough for the
 * dashboard's tests, with no test dependency.
 *
 * <pre>{@code
 * try (Chromium browser = Chromium.launch(Chromium.find().orElseThrow())) {
 *     browser.open("http://127.0.0.1:8080/dashboard");
 *     Object title = browser.eval("document.title");
 * }
 * }</pre>
 */
public final class Chromium implements AutoCloseable {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final Path profile;
    private final HttpClient http = HttpClient.newHttpClient();
    private final WebSocket socket;
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private String targetId;
    private String session;

    private Chromium(Process process, Path profile, URI debugger) throws InterruptedException {
        this.process = process;
        this.profile = profile;
        this.socket = http.newWebSocketBuilder().buildAsync(debugger, new Listener()).join();
    }

    /** Debian's {@code chromium}, or {@code $LOOMGATE_CHROMIUM}; empty when neither exists. */
    public static Optional<Path> find() {
        String given = System.getenv("LOOMGATE_CHROMIUM");
        for (String candidate : new String[] {given, "/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
            if (candidate != null && Files.isExecutable(Path.of(candidate))) {
                return Optional.of(Path.of(candidate));
            }
        }
        return Optional.empty();
    }

    /** Starts it headless on a fresh profile, with nothing that would reach outside this machine. */
    public static Chromium launch(Path executable) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("loomgate-chromium");
        Process p = new ProcessBuilder(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank")
                .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("chromium did not open its DevTools port: " + Files.readString(profile.resolve("chromium.log")));
            }
            Thread.sleep(50);
        }
        List<String> lines = Files.readAllLines(portFile);
        return new Chromium(p, profile, URI.create("ws://127.0.0.1:" + lines.get(0) + lines.get(1)));
    }

    /**
     * Opens {@code url} in a new tab, with console and log errors collected from its start; the tab
     * opened before is closed, and its errors forgotten (its server may be gone, and its polling
     * with it).
     */
    @SuppressWarnings("unchecked")
    public void open(String url) {
        if (targetId != null) {
            call(null, "Target.closeTarget", Map.of("targetId", targetId));
            errors.clear();
        }
        Map<String, Object> target = call(null, "Target.createTarget", Map.of("url", "about:blank"));
        targetId = (String) target.get("targetId");
        Map<String, Object> attached = call(null, "Target.attachToTarget",
                Map.of("targetId", target.get("targetId"), "flatten", true));
        session = (String) attached.get("sessionId");
        call(session, "Runtime.enable", Map.of());
        call(session, "Log.enable", Map.of());
        call(session, "Page.enable", Map.of());
        call(session, "Page.navigate", Map.of("url", url));
    }

    /** Evaluates {@code expression} in the page (awaiting a promise) and returns its JSON value. */
    @SuppressWarnings("unchecked")
    public Object eval(String expression) {
        Map<String, Object> r = call(session, "Runtime.evaluate",
                Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (r.containsKey("exceptionDetails")) {
            throw new AssertionError("the page threw: " + r.get("exceptionDetails"));
        }
        return ((Map<String, Object>) r.get("result")).get("value");
    }

    /**
     * Evaluates {@code expression} until it is truthy, for up to {@code timeout}. An expression that
     * throws (the page is still loading, say) counts as not yet.
     */
    public Object await(String expression, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        AssertionError last = null;
        while (true) {
            try {
                Object v = eval(expression);
                if (v != null && !Boolean.FALSE.equals(v) && !"".equals(v)) {
                    return v;
                }
            } catch (AssertionError notYet) {
                last = notYet;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true within " + timeout + ": " + expression, last);
            }
            Thread.sleep(100);
        }
    }

    /** A PNG of the page as it is now. */
    public byte[] screenshot() {
        return java.util.Base64.getDecoder().decode((String) call(session, "Page.captureScreenshot",
                Map.of("format", "png")).get("data"));
    }

    /** Console errors, uncaught exceptions and error log entries (failed loads among them) so far. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    private Map<String, Object> call(String sessionId, String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        JsonWriter w = new JsonWriter(256).beginObject().field("id", id).field("method", method);
        if (sessionId != null) {
            w.field("sessionId", sessionId);
        }
        w.name("params").tree(params).endObject();
        socket.sendText(w.toString(), true).join();
        try {
            return answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("DevTools " + method + " failed: " + e, e);
        }
    }

    @SuppressWarnings("unchecked")
    private void message(String text) {
        Map<String, Object> m = JsonParser.parseObject(text);
        if (m.get("id") instanceof Number n) {
            CompletableFuture<Map<String, Object>> f = pending.remove(n.intValue());
            if (f != null) {
                if (m.containsKey("error")) {
                    f.completeExceptionally(new IOException(String.valueOf(m.get("error"))));
                } else {
                    f.complete((Map<String, Object>) m.getOrDefault("result", Map.of()));
                }
            }
            return;
        }
        Map<String, Object> p = (Map<String, Object>) m.getOrDefault("params", Map.of());
        switch (String.valueOf(m.get("method"))) {
            case "Runtime.consoleAPICalled" -> {
                if ("error".equals(p.get("type")) || "assert".equals(p.get("type"))) {
                    errors.add("console." + p.get("type") + ": " + p.get("args"));
                }
            }
            case "Runtime.exceptionThrown" -> errors.add("exception: " + p.get("exceptionDetails"));
            case "Log.entryAdded" -> {
                Map<String, Object> entry = (Map<String, Object>) p.get("entry");
                if ("error".equals(entry.get("level"))) {
                    errors.add("log: " + entry.get("text") + " " + entry.getOrDefault("url", ""));
                }
            }
            default -> {
            }
        }
    }

    @Override
    public void close() {
        socket.abort();
        // Chromium's helper processes (zygote, renderer, GPU) may outlive the browser process and still
        // write into the profile: stop them all, and wait for each, before the profile is deleted.
        java.util.List<ProcessHandle> all = new java.util.ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LocalTools.deleteTree(profile);
        http.close();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                message(text);
            }
            ws.request(1);
            return null;
        }
    }
}
