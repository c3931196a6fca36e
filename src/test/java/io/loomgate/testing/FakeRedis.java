package io.loomgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A Redis that answers badly, on 127.0.0.1: each read of a connection gets {@code answer(what was
 * read)}. It records {@code accepted}, {@code command}, and on each connection's end
 * {@code closed after N} (N the commands it read) then {@code closed}.
 */
public final class FakeRedis implements AutoCloseable {

    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<String> events = new CopyOnWriteArrayList<>();

    public FakeRedis(Function<String, byte[]> answer) throws IOException {
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    events.add("accepted");
                    Thread.ofVirtual().start(() -> serve(s, answer));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private void serve(Socket s, Function<String, byte[]> answer) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            byte[] buf = new byte[4096];
            int n;
            int commands = 0;
            try {
                while ((n = in.read(buf)) > 0) {
                    events.add("command");
                    commands++;
                    out.write(answer.apply(new String(buf, 0, n, StandardCharsets.UTF_8)));
                    out.flush();
                }
            } finally {
                events.add("closed after " + commands);
                events.add("closed");
            }
        } catch (IOException e) {
            // closed by the client
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "redis://127.0.0.1:" + port();
    }

    public List<String> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
