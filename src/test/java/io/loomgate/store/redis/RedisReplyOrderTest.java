package io.loomgate.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.RedisOptions;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A reply goes to the command that asked for it, whatever happened to the commands before it: a
 * fake Redis answers {@code ECHO x} with {@code x}, in order on each connection, but holds the
 * reply to {@code ECHO slow} past its caller's deadline. The commands sent after that one must each
 * get their own value (or fail), never a neighbour's: a reader that skipped the abandoned command's
 * slot when its reply came would hand every later reply to the wrong waiter.
 */
class RedisReplyOrderTest {

    /** A RESP server on 127.0.0.1 that echoes, in order, holding the reply to "slow" for {@code holdMs}. */
    private static final class EchoRedis implements AutoCloseable {
        final AtomicInteger afterSlow = new AtomicInteger();
        final ServerSocket server;

        EchoRedis(long holdMs) throws IOException {
            server = io.loomgate.testing.RawServer.start(s -> serve(s, holdMs));
        }

        private void serve(Socket s, long holdMs) {
            try (s) {
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                boolean slowSeen = false;
                while (true) {
                    List<String> command = readArray(in);
                    if (command == null) {
                        return;
                    }
                    String value = command.size() > 1 ? command.get(1) : "";
                    if (value.equals("slow")) {
                        Thread.sleep(holdMs);
                        slowSeen = true;
                    } else if (slowSeen) {
                        afterSlow.incrementAndGet();
                    }
                    byte[] v = value.getBytes(StandardCharsets.UTF_8);
                    out.write(("$" + v.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(v);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the client closed it
            }
        }

        private static List<String> readArray(InputStream in) throws IOException {
            String head = line(in);
            if (head == null) {
                return null;
            }
            int n = Integer.parseInt(head.substring(1));
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int len = Integer.parseInt(line(in).substring(1));
                byte[] b = in.readNBytes(len);
                in.readNBytes(2);
                parts.add(new String(b, StandardCharsets.UTF_8));
            }
            return parts;
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    return null;
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void eachWaiterGetsItsOwnReplyAfterACommandWhoseCallerGaveUp() throws Exception {
        try (EchoRedis redis = new EchoRedis(600);
             RedisClient client = new RedisClient(new RedisOptions(false, "127.0.0.1", redis.server.getLocalPort(), Optional.empty(),
                     Optional.empty(), 0, Duration.ofMillis(400), Optional.empty()), Optional.empty())) {
            assertEquals("warm", ((Reply.Bulk) client.call("ECHO", "warm")).text());
            for (int round = 0; round < 3; round++) {
                for (int c = 0; c < RedisClient.CONNECTIONS; c++) {   // one abandoned command on each connection
                    CompletableFuture.runAsync(() -> assertThrows(StoreException.class, () -> client.call("ECHO", "slow")));
                }
                Thread.sleep(450);   // their callers have given up (400 ms); their replies come at 600 ms
                List<CompletableFuture<String>> later = new ArrayList<>();
                try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int i = 0; i < 40; i++) {
                        String mine = "v" + round + "-" + i;
                        later.add(CompletableFuture.supplyAsync(() -> {
                            try {
                                return ((Reply.Bulk) client.call("ECHO", mine)).text();
                            } catch (StoreException e) {
                                return mine;   // gave up too: that is allowed, a neighbour's reply is not
                            }
                        }, pool));
                    }
                    for (int i = 0; i < later.size(); i++) {
                        assertEquals("v" + round + "-" + i, later.get(i).get(), "a waiter got another command's reply");
                    }
                }
            }
            assertTrue(redis.afterSlow.get() > 0, "commands were queued behind an abandoned one");
        }
    }
}
