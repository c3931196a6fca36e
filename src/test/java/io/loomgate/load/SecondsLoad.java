package io.loomgate.load;

import io.loomgate.observe.histogram.Histogram;
import io.loomgate.observe.histogram.HistogramSnapshot;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop load of {@code GET}s on keep-alive connections, like wrk, that also says what
 * happened each second: answers (2xx and not), connection errors (refused, reset, closed early, no
 * answer in 10 s) and the p50 and p99 of the answers that ended in that second. wrk cannot: its
 * script API has no clock to time one request by. {@code scripts/load --scenario replicas} runs it
 * while a replica is killed and restarted. Loopback only; bounded by its seconds.
 *
 * <pre>{@code
 * java -cp target/test-classes:target/classes io.loomgate.load.SecondsLoad http://127.0.0.1:8080/api/data 1000 30 out.json 5
 * }</pre>
 * The last argument is a warm-up in seconds (default 0): the same load, counted nowhere, so that the
 * client's own JIT is done before the first counted second. It prints {@code recording} when the
 * counted seconds begin.
 */
public final class SecondsLoad {

    private static final int MAX_SECONDS = 300;

    /** What ended in one second. */
    private static final class Second {
        final LongAdder ok = new LongAdder();
        final LongAdder notOk = new LongAdder();
        final LongAdder errors = new LongAdder();
        final Histogram latency = new Histogram();
    }

    private final URI url;
    private final Second[] seconds;
    private final long warmEndNanos;
    private final long startNanos;
    private final long endNanos;
    private final byte[] request;

    private SecondsLoad(URI url, int seconds, int warmup) {
        this.warmEndNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup);
        this.startNanos = warmEndNanos;
        this.url = url;
        this.seconds = new Second[seconds + 1];
        for (int i = 0; i < this.seconds.length; i++) {
            this.seconds[i] = new Second();
        }
        this.endNanos = startNanos + TimeUnit.SECONDS.toNanos(seconds);
        this.request = ("GET " + url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery())
                + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            System.err.println("usage: SecondsLoad URL CONNECTIONS SECONDS OUT.json [WARMUP_SECONDS]");
            System.exit(2);
        }
        URI url = URI.create(args[0]);
        if (!url.getHost().equals("127.0.0.1")) {
            throw new IllegalArgumentException("load goes to 127.0.0.1 only, not " + url.getHost());
        }
        int connections = Math.min(Integer.parseInt(args[1]), 10_000);
        int seconds = Math.min(Integer.parseInt(args[2]), MAX_SECONDS);
        int warmup = args.length == 5 ? Math.min(Integer.parseInt(args[4]), 60) : 0;
        SecondsLoad load = new SecondsLoad(url, seconds, warmup);
        CountDownLatch done = new CountDownLatch(connections);
        for (int i = 0; i < connections; i++) {
            Thread.ofVirtual().start(() -> {
                try {
                    load.loop();
                } finally {
                    done.countDown();
                }
            });
        }
        long toStart = load.warmEndNanos - System.nanoTime();
        if (toStart > 0) {
            TimeUnit.NANOSECONDS.sleep(toStart);
        }
        System.out.println("recording");
        System.out.flush();
        done.await(seconds + 30L, TimeUnit.SECONDS);
        Files.writeString(Path.of(args[3]), load.json(connections));
    }

    /** One connection's requests, one after another, until the end; a broken connection is opened again. */
    private void loop() {
        while (System.nanoTime() < endNanos) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(url.getHost(), url.getPort()), 10_000);
                s.setSoTimeout(10_000);
                s.setTcpNoDelay(true);
                InputStream in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
                OutputStream out = s.getOutputStream();
                boolean open = true;
                while (open && System.nanoTime() < endNanos) {
                    long start = System.nanoTime();
                    out.write(request);
                    out.flush();
                    Answer a = Answer.read(in);
                    if (start < warmEndNanos) {
                        open = !a.close();
                        continue;   // the warm-up counts nothing
                    }
                    Second sec = second(System.nanoTime());
                    (a.status() / 100 == 2 ? sec.ok : sec.notOk).increment();
                    sec.latency.record(System.nanoTime() - start);
                    open = !a.close();
                }
            } catch (IOException e) {
                if (System.nanoTime() >= warmEndNanos) {
                    second(System.nanoTime()).errors.increment();
                }
                try {
                    Thread.sleep(10);   // a refused connection is not retried in a spin
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private Second second(long nanos) {
        int i = (int) ((nanos - startNanos) / 1_000_000_000L);
        return seconds[Math.clamp(i, 0, seconds.length - 1)];
    }

    private String json(int connections) {
        StringBuilder sb = new StringBuilder("{\"url\":\"" + url + "\",\"connections\":" + connections + ",\"seconds\":[");
        long ok = 0;
        long notOk = 0;
        long errors = 0;
        Histogram all = new Histogram();
        for (int i = 0; i < seconds.length - 1; i++) {   // the last slot holds what ended after the end
            Second s = seconds[i];
            HistogramSnapshot h = s.latency.snapshot();
            sb.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"second\":%d,\"ok\":%d,\"notOk\":%d,\"errors\":%d,\"p50Ms\":%.1f,\"p99Ms\":%.1f}",
                    i, s.ok.sum(), s.notOk.sum(), s.errors.sum(), h.percentileNanos(0.5) / 1e6, h.percentileNanos(0.99) / 1e6));
            ok += s.ok.sum();
            notOk += s.notOk.sum();
            errors += s.errors.sum();
        }
        return sb.append(String.format(Locale.ROOT, "],\"ok\":%d,\"notOk\":%d,\"errors\":%d}%n", ok, notOk, errors)).toString();
    }

    /** One answer read off the connection: its status, and whether the server closes after it. */
    record Answer(int status, boolean close) {

        static Answer read(InputStream in) throws IOException {
            String status = line(in);
            if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
                throw new IOException("not an HTTP/1.1 answer: " + status);
            }
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(h.substring(15).strip());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    close = true;
                }
            }
            if (chunked) {
                for (long n; (n = Long.parseLong(line(in).split(";")[0].strip(), 16)) > 0; ) {
                    skip(in, n + 2);
                }
                while (!line(in).isEmpty()) {
                    // trailers
                }
            } else if (length >= 0) {
                skip(in, length);
            } else {
                in.transferTo(OutputStream.nullOutputStream());
                close = true;
            }
            return new Answer(Integer.parseInt(status.substring(9, 12)), close);
        }

        private static void skip(InputStream in, long n) throws IOException {
            in.skipNBytes(n);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder(64);
            for (int b; (b = in.read()) != '\n'; ) {
                if (b < 0) {
                    throw new IOException("closed mid-answer");
                }
                if (b != '\r') {
                    sb.append((char) b);
                }
                if (sb.length() > 8192) {
                    throw new IOException("a line over 8 KB");
                }
            }
            return sb.toString();
        }
    }
}
