package io.loomgate.store.redis;

import io.loomgate.config.RedisOptions;
import io.loomgate.edge.tls.ClientTls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One connection to Redis: opened, TLS'd and logged in ({@code AUTH}, {@code SELECT}, pipelined),
 * then used for one command (or one pipeline) at a time. Every read is bounded by the command's
 * deadline. After a timeout, a malformed reply or any I/O error the connection is in doubt (a late
 * reply could be read as the next command's) and its caller closes it.
 */
final class RedisConnection implements AutoCloseable {

    private final Socket socket;
    private final Deadlined deadlined;
    private final InputStream in;
    private final OutputStream out;
    private final Resp resp;

    private RedisConnection(Socket socket, Resp resp) throws IOException {
        this.socket = socket;
        this.resp = resp;
        this.deadlined = new Deadlined(socket);
        this.in = new BufferedInputStream(deadlined, 8192);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    }

    /**
     * Connects, runs the TLS handshake when {@code tls} is given, and logs in, all before
     * {@code deadlineNanos}.
     *
     * @throws StoreException when Redis refuses the login or the database ({@code WRONGPASS}, {@code NOAUTH} ...)
     */
    static RedisConnection open(RedisOptions o, Optional<ClientTls> tls, Resp resp, long deadlineNanos)
            throws IOException, StoreException {
        Socket plain = new Socket();
        RedisConnection c = null;
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(o.host(), o.port()), remainingMillis(deadlineNanos));
            Socket s = tls.isPresent() ? tls.get().handshake(plain, o.host(), o.port(), remainingMillis(deadlineNanos)) : plain;
            c = new RedisConnection(s, resp);
            List<byte[][]> login = new ArrayList<>();
            if (o.password().isPresent()) {
                login.add(o.user().isPresent() ? Resp.args("AUTH", o.user().get(), o.password().get()) : Resp.args("AUTH", o.password().get()));
            }
            if (o.database() != 0) {
                login.add(Resp.args("SELECT", Integer.toString(o.database())));
            }
            for (Reply r : c.pipeline(deadlineNanos, login)) {
                if (r instanceof Reply.Error e) {
                    throw new StoreException(StoreException.Kind.ERROR, "Redis refused the login or the database: " + e.code(), e.text());
                }
            }
            return c;
        } catch (IOException | StoreException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /** Sends {@code commands} at once and reads their replies, before {@code deadlineNanos}. */
    List<Reply> pipeline(long deadlineNanos, List<byte[][]> commands) throws IOException {
        deadlined.until(deadlineNanos);
        for (byte[][] command : commands) {
            Resp.write(out, command);
        }
        out.flush();
        List<Reply> replies = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            replies.add(resp.read(in));
        }
        return replies;
    }

    Reply call(long deadlineNanos, byte[]... command) throws IOException {
        return pipeline(deadlineNanos, List.<byte[][]>of(command)).getFirst();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static int remainingMillis(long deadlineNanos) throws SocketTimeoutException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SocketTimeoutException("the Redis deadline passed");
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000));
    }

    /** The socket's input, each read bounded by what is left until the deadline. */
    private static final class Deadlined extends InputStream {
        private final Socket socket;
        private final InputStream raw;
        private long deadlineNanos;

        Deadlined(Socket socket) throws IOException {
            this.socket = socket;
            this.raw = socket.getInputStream();
        }

        void until(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            socket.setSoTimeout(remainingMillis(deadlineNanos));
            return raw.read(b, off, len);
        }
    }
}
