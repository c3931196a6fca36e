package io.loomgate.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens keep-alive connections to a server, each asking one {@code GET} and reading its answer, then
 * holds them all idle for a while, so {@code scripts/load --scenario server} can read what idle
 * connections cost the server. Loopback only, bounded in count and in time. Prints one JSON line:
 * how many were opened and answered, and how many the server had closed by the end.
 *
 * <pre>{@code
 * java -cp target/test-classes io.loomgate.load.IdleClients --url http://127.0.0.1:8080/health --connections 10000 --hold 20
 * }</pre>
 */
public final class IdleClients {

    private IdleClients() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        URI url = URI.create(a.getOrDefault("url", "http://127.0.0.1:8080/health"));
        if (!url.getHost().equals("127.0.0.1") && !url.getHost().equals("localhost")) {
            throw new IllegalArgumentException("idle clients go to loopback only, not " + url.getHost());
        }
        int n = Math.min(Integer.parseInt(a.getOrDefault("connections", "10000")), 20_000);
        int hold = Math.min(Integer.parseInt(a.getOrDefault("hold", "20")), 120);
        byte[] request = ("GET " + url.getRawPath() + " HTTP/1.1\r\nHost: " + url.getHost() + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread.ofVirtual().start(() -> {
                try {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress(url.getHost(), url.getPort()), 10_000);
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(request);
                    readAnswer(s.getInputStream());
                    open.add(s);
                    answered.incrementAndGet();
                } catch (IOException e) {
                    failed.incrementAndGet();
                } finally {
                    done.countDown();
                }
            });
            if (i % 500 == 499) {
                Thread.sleep(50);   // connect in waves, so the accept backlog is never what refuses them
            }
        }
        done.await(60, TimeUnit.SECONDS);
        System.out.println("{\"phase\":\"holding\",\"answered\":" + answered.get() + ",\"failed\":" + failed.get() + "}");
        System.out.flush();
        Thread.sleep(hold * 1000L);
        int closedByServer = 0;
        for (Socket s : List.copyOf(open)) {
            try {
                s.setSoTimeout(1);
                if (s.getInputStream().read() < 0) {
                    closedByServer++;
                }
            } catch (java.net.SocketTimeoutException stillOpen) {
                // what an idle connection does
            } catch (IOException reset) {
                closedByServer++;
            }
            s.close();
        }
        System.out.println("{\"phase\":\"done\",\"connections\":" + n + ",\"answered\":" + answered.get() + ",\"failed\":"
                + failed.get() + ",\"closedByServer\":" + closedByServer + "}");
    }

    /** Reads one answer: its head, then Content-Length bytes. */
    private static void readAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before an answer");
            }
            head.append((char) b);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        in.readNBytes(length);
    }
}
