package io.loomgate.load;

import io.loomgate.json.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The measuring half of {@code scripts/soak} (the script starts the processes and runs wrk):
 * <pre>{@code
 * SoakCheck wait-idle URL SECONDS           # until no service call is in flight; prints the ms it took
 * SoakCheck snapshot URL PID FILE           # RSS, heap (the script ran a GC first), 500s, calls by outcome
 * SoakCheck verdict WARM AFTER WRK IDLE_MS  # prints the summary; exit 1 on any miss
 * }</pre>
 */
public final class SoakCheck {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private SoakCheck() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "wait-idle" -> {
                long waited = waitIdle(args[1], Long.parseLong(args[2]) * 1000);
                System.out.println(waited);
                System.exit(waited >= 0 ? 0 : 1);
            }
            case "snapshot" -> Files.writeString(Path.of(args[3]), snapshotJson(args[1], Long.parseLong(args[2])));
            case "verdict" -> {
                long idleMs = Long.parseLong(args[4]);
                SoakVerdict v = new SoakVerdict(snapshot(Path.of(args[1])), snapshot(Path.of(args[2])),
                        load(Path.of(args[3])), idleMs >= 0, idleMs);
                System.out.print(v.summary());
                System.exit(v.passed() ? 0 : 1);
            }
            default -> {
                System.err.println("usage: SoakCheck wait-idle URL SECONDS | snapshot URL PID FILE | verdict WARM AFTER WRK IDLE_MS");
                System.exit(2);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metrics(String base) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/metrics?format=json")).build();
        return JsonParser.parseObject(HTTP.send(r, HttpResponse.BodyHandlers.ofString()).body());
    }

    /** Milliseconds until every service reports 0 in flight, or -1 if that did not happen in time. */
    @SuppressWarnings("unchecked")
    static long waitIdle(String base, long limitMs) throws IOException, InterruptedException {
        long start = System.nanoTime();
        while ((System.nanoTime() - start) / 1_000_000 < limitMs) {
            Map<String, Object> services = (Map<String, Object>) metrics(base).get("services");
            boolean idle = services.values().stream().allMatch(s -> ((Number) ((Map<String, Object>) s).get("inFlight")).longValue() == 0);
            if (idle) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            Thread.sleep(100);
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static String snapshotJson(String base, long pid) throws IOException, InterruptedException {
        Map<String, Object> m = metrics(base);
        long heap = ((Number) ((Map<String, Object>) m.get("jvm")).get("heapUsedBytes")).longValue();
        long served500 = 0;
        for (Object route : ((Map<String, Object>) m.get("routes")).values()) {
            Object n = ((Map<String, Object>) ((Map<String, Object>) route).get("statuses")).get("500");
            served500 += n == null ? 0 : ((Number) n).longValue();
        }
        Map<String, Long> calls = new LinkedHashMap<>();
        for (Object service : ((Map<String, Object>) m.get("services")).values()) {
            ((Map<String, Object>) ((Map<String, Object>) service).get("calls"))
                    .forEach((outcome, n) -> calls.merge(outcome, ((Number) n).longValue(), Long::sum));
        }
        long rss = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0L);
        StringBuilder sb = new StringBuilder("{\"rssKb\":").append(rss).append(",\"heapAfterGcBytes\":").append(heap)
                .append(",\"served500\":").append(served500).append(",\"calls\":{");
        calls.forEach((k, v) -> sb.append('"').append(k).append("\":").append(v).append(','));
        if (!calls.isEmpty()) {
            sb.setLength(sb.length() - 1);
        }
        return sb.append("}}\n").toString();
    }

    @SuppressWarnings("unchecked")
    static SoakVerdict.Snapshot snapshot(Path file) throws IOException {
        Map<String, Object> j = JsonParser.parseObject(Files.readString(file));
        Map<String, Long> calls = new LinkedHashMap<>();
        ((Map<String, Object>) j.get("calls")).forEach((k, v) -> calls.put(k, ((Number) v).longValue()));
        return new SoakVerdict.Snapshot(((Number) j.get("rssKb")).longValue(), ((Number) j.get("heapAfterGcBytes")).longValue(),
                ((Number) j.get("served500")).longValue(), calls);
    }

    @SuppressWarnings("unchecked")
    static SoakVerdict.Load load(Path file) throws IOException {
        Map<String, Object> j = JsonParser.parseObject(Files.readString(file).lines()
                .filter(l -> l.startsWith("{\"requests\"")).reduce((a, b) -> b).orElseThrow());
        Map<String, Long> errors = new LinkedHashMap<>();
        ((Map<String, Object>) j.get("errors")).forEach((k, v) -> errors.put(k, ((Number) v).longValue()));
        Map<Integer, Long> statuses = new LinkedHashMap<>();
        ((Map<String, Object>) j.get("statuses")).forEach((k, v) -> statuses.put(Integer.parseInt(k), ((Number) v).longValue()));
        return new SoakVerdict.Load(((Number) j.get("requests")).longValue(), ((Number) j.get("durationUs")).doubleValue() / 1e6,
                errors, statuses);
    }
}
