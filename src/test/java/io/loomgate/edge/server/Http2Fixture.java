package io.loomgate.edge.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loomgate.http.Exchange;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The server {@link Http2ServerTest} and {@link Http2DefenceTest} talk to: loomgate's own, h2c on the
 * port HTTP/1.1 uses, with a handler whose paths each show one thing (a stream that blocks until
 * released or cancelled, trailers, a streamed answer, a declared body in pieces, an echo, a body
 * larger than a window) and that records what it saw.
 */
final class Http2Fixture {

    HttpServer server;
    final List<Exchange> seen = new CopyOnWriteArrayList<>();
    /** Paths under /block wait here until released, or interrupted. */
    final Semaphore released = new Semaphore(0);
    final CountDownLatch blocked = new CountDownLatch(1);
    final List<String> interrupted = new CopyOnWriteArrayList<>();
    final List<String> hooksRun = new CopyOnWriteArrayList<>();
    final ConcurrentHashMap<String, CountDownLatch> started = new ConcurrentHashMap<>();

    final ExchangeHandler handler = new ExchangeHandler() {
        @Override
        public void handle(Exchange x) throws IOException {
            seen.add(x);
            String path = x.uri().getPath();
            if (path.startsWith("/block")) {
                x.onClientGone(() -> hooksRun.add(path));
                started.computeIfAbsent(path, p -> new CountDownLatch(1)).countDown();
                blocked.countDown();
                try {
                    released.acquire();
                } catch (InterruptedException e) {
                    interrupted.add(path);
                    x.close();
                    return;
                }
            }
            if (path.equals("/trailers")) {
                io.loomgate.http.AnswerWriter.Wire wire = (io.loomgate.http.AnswerWriter.Wire) x;
                wire.head(200, 0, Headers.of("content-type", "application/grpc"));
                wire.output().write(new byte[] {0, 0, 0, 0, 2, 8, 1});
                ((io.loomgate.http.Trailers) x).trailers(Headers.of("grpc-status", "0", "grpc-message", "fine"));
                x.close();
                return;
            }
            if (path.equals("/pieces")) {   // a declared length written in three pieces
                io.loomgate.http.AnswerWriter.Wire wire = (io.loomgate.http.AnswerWriter.Wire) x;
                wire.head(200, 9, Headers.of("content-type", "text/plain"));
                for (String piece : List.of("abc", "def", "ghi")) {
                    wire.output().write(piece.getBytes());
                }
                x.close();
                return;
            }
            if (path.equals("/stream")) {
                x.write(Response.streamed(200, new Response.Stream(Headers.of("content-type", "text/plain"), -1, new Response.Writer() {
                    @Override
                    public void writeTo(java.io.OutputStream out) throws IOException {
                        out.flush();   // the head goes now, as a proxy's does before the upstream's body has come
                        try {
                            released.acquire();
                        } catch (InterruptedException e) {
                            throw new java.io.InterruptedIOException();
                        }
                        out.write("late body".getBytes());
                    }

                    @Override
                    public void discard() {
                    }
                })), false);
                x.close();
                return;
            }
            byte[] body = switch (path) {
                case "/echo" -> x.body().readAllBytes();
                case "/big" -> new byte[200_000];
                default -> ("hello " + x.protocol() + " " + x.headers().first("host")).getBytes();
            };
            if (path.equals("/big")) {
                java.util.Arrays.fill(body, (byte) 'b');
            }
            x.write(new Response(200, "text/plain", body, Headers.of("Connection", "close", "X-Answer", "yes")), x.method().equals("HEAD"));
            x.close();
        }

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        }
    };

    InetSocketAddress start() throws IOException {
        return start(ServerLimits.DEFAULTS);
    }

    InetSocketAddress start(ServerLimits limits) throws IOException {
        server = new LoomgateServers(limits).createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.start();
        return server.getAddress();
    }

    /** Lets every waiting handler go and stops the server, if a test left one running. */
    void stop() {
        released.release(1000);
        if (server != null) {
            server.stop(0);
        }
    }

    static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "not within 20 s");
            Thread.sleep(5);
        }
    }
}
