package io.loomgate.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The stranger of {@code scripts/load --scenario abuse}, with nothing but the public port: it opens
 * connections that send half a request head and wait (a slowloris), and sends requests that each
 * carry a new value of the header a route is rate limited by. Bounded in count and in time; loopback
 * only. Prints one JSON line of what it did and what it met.
 *
 * <pre>{@code
 * java -cp target/test-classes io.loomgate.load.Attacker --url http://127.0.0.1:8080 --delay 3 --stalled 20000 \
 *     --keys 200000 --key-path /keyed --key-header X-Key --key-bytes 1000 --seconds 18
 * }</pre>
 */
public final class Attacker {

    private static final int PIPELINE = 8;
    private static final int FLOODERS = 16;

    private final URI url;
    private final int stalled;
    private final int keys;
    private final String keyPath;
    private final String keyHeader;
    private final int keyBytes;
    private final long deadline;
    private final AtomicInteger stalledOpened = new AtomicInteger();
    private final AtomicInteger stalledClosedByServer = new AtomicInteger();
    private final AtomicInteger stalledNotOpened = new AtomicInteger();
    private final AtomicInteger keysSent = new AtomicInteger();
    private final LongAdder keyErrors = new LongAdder();
    private final Map<Integer, LongAdder> keyStatuses = new ConcurrentHashMap<>();

    private Attacker(Map<String, String> a) throws InterruptedException {
        Thread.sleep(Long.parseLong(a.getOrDefault("delay", "0")) * 1000);
        url = URI.create(a.getOrDefault("url", "http://127.0.0.1:8080"));
        if (!url.getHost().equals("127.0.0.1") && !url.getHost().equals("localhost")) {
            throw new IllegalArgumentException("the attacker sends to loopback only, not " + url.getHost());
        }
        stalled = Integer.parseInt(a.getOrDefault("stalled", "20000"));
        keys = Integer.parseInt(a.getOrDefault("keys", "200000"));
        keyPath = a.getOrDefault("key-path", "/keyed");
        keyHeader = a.getOrDefault("key-header", "X-Key");
        keyBytes = Integer.parseInt(a.getOrDefault("key-bytes", "1000"));
        deadline = System.nanoTime() + Long.parseLong(a.getOrDefault("seconds", "20")) * 1_000_000_000L;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Attacker attacker = new Attacker(a);
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> slow = pool.submit(() -> {
                attacker.stall();
                return null;
            });
            List<Future<?>> floods = new ArrayList<>();
            for (int i = 0; i < FLOODERS; i++) {
                floods.add(pool.submit(() -> {
                    attacker.flood();
                    return null;
                }));
            }
            slow.get();
            for (Future<?> f : floods) {
                f.get();
            }
        }
        System.out.println(attacker.json());
    }

    /** Opens the stalled connections, watching for the server closing them, and holds the rest until the end. */
    private void stall() throws IOException, InterruptedException {
        byte[] half = ("GET " + keyPath + " HTTP/1.1\r\nHost: x\r\nX-Slow: ").getBytes(StandardCharsets.US_ASCII);
        InetSocketAddress address = new InetSocketAddress(url.getHost(), url.getPort());
        List<SocketChannel> held = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < stalled && System.nanoTime() < deadline; i++) {
                try {
                    SocketChannel c = SocketChannel.open(address);
                    c.write(ByteBuffer.wrap(half));
                    c.configureBlocking(false);
                    c.register(selector, SelectionKey.OP_READ);
                    held.add(c);
                    stalledOpened.incrementAndGet();
                } catch (IOException refused) {
                    stalledNotOpened.incrementAndGet();
                }
                if (i % 200 == 0) {
                    reap(selector);
                }
            }
            while (System.nanoTime() < deadline) {
                reap(selector);
                Thread.sleep(100);
            }
            reap(selector);
        } finally {
            for (SocketChannel c : held) {
                c.close();
            }
        }
    }

    /** Closes the connections the server closed (or answered and closed), counting them. */
    private void reap(Selector selector) throws IOException {
        selector.selectNow();
        ByteBuffer scratch = ByteBuffer.allocate(4096);
        for (SelectionKey k : selector.selectedKeys()) {
            SocketChannel c = (SocketChannel) k.channel();
            scratch.clear();
            int n;
            try {
                n = c.read(scratch);
            } catch (IOException reset) {
                n = -1;
            }
            if (n < 0) {
                stalledClosedByServer.incrementAndGet();
                k.cancel();
                c.close();
            }
        }
        selector.selectedKeys().clear();
    }

    /**
     * Sends requests with new keys on one keep-alive connection, {@value #PIPELINE} at a time in one
     * write (pipelined, as HTTP/1.1 allows), reconnecting when the connection closes.
     */
    private void flood() {
        String pad = "k".repeat(Math.max(0, keyBytes - 12));
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket(url.getHost(), url.getPort())) {
                s.setTcpNoDelay(true);
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                InputStream in = new java.io.BufferedInputStream(s.getInputStream());
                while (System.nanoTime() < deadline) {
                    StringBuilder batch = new StringBuilder();
                    int sent = 0;
                    for (int n; sent < PIPELINE && (n = keysSent.incrementAndGet()) <= keys; sent++) {
                        batch.append("GET ").append(keyPath).append(" HTTP/1.1\r\nHost: x\r\n").append(keyHeader).append(": ")
                                .append(pad).append(n).append("\r\n\r\n");
                    }
                    if (sent == 0) {
                        return;
                    }
                    out.write(batch.toString().getBytes(StandardCharsets.US_ASCII));
                    for (int i = 0; i < sent; i++) {
                        int status = readAnswer(in);
                        if (status < 0) {
                            keyErrors.increment();
                            break;
                        }
                        keyStatuses.computeIfAbsent(status, x -> new LongAdder()).increment();
                    }
                }
            } catch (IOException e) {
                keyErrors.increment();
            }
        }
    }

    /** Reads one answer with a Content-Length body; its status, or -1 when the connection ended. */
    private static int readAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
                break;
            }
        }
        if (c < 0) {
            return -1;
        }
        String text = head.toString();
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(text.substring(9, 12));
    }

    /** Key requests that were answered, whatever the status. */
    private long keysAnswered() {
        return keyStatuses.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private String json() {
        StringBuilder statuses = new StringBuilder("{");
        new TreeMap<>(keyStatuses).forEach((k, v) -> statuses.append(statuses.length() > 1 ? "," : "")
                .append('"').append(k).append("\":").append(v.sum()));
        return "{\"stalledOpened\":" + stalledOpened.get() + ",\"stalledClosedByServer\":" + stalledClosedByServer.get()
                + ",\"stalledNotOpened\":" + stalledNotOpened.get() + ",\"keysSent\":" + keysAnswered()
                + ",\"keyBytes\":" + keyBytes + ",\"keyStatuses\":" + statuses.append('}') + ",\"keyErrors\":" + keyErrors.sum() + "}";
    }
}
