package io.loomgate.observe.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where access-log lines wait to be written, so that writing them never blocks a request: a
 * bounded queue ({@value #CAPACITY} lines) that a request only offers to, and one thread that writes
 * what it holds. When the queue is full the line is dropped and counted, never waited for. A file
 * is appended to and reopened on request (SIGUSR1, after a log rotation moved it away).
 */
public final class LogQueue implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    static final int CAPACITY = 16_384;

    /** Where lines go: a console stream, a file, or a logger. */
    public interface Sink {
        void write(String line) throws IOException;

        default void flush() throws IOException {
        }

        /** Opens its file again, by name; nothing for a console. */
        default void reopen() throws IOException {
        }

        default void close() {
        }
    }

    private final ArrayBlockingQueue<String> lines = new ArrayBlockingQueue<>(CAPACITY);
    private final LongAdder dropped = new LongAdder();
    private final Sink sink;
    private final Thread writer;
    private volatile boolean reopen;
    private volatile boolean closing;

    public LogQueue(Sink sink) {
        this.sink = sink;
        this.writer = Thread.ofPlatform().daemon().name("loomgate-access-log").start(this::run);
    }

    /** Queues {@code line}; drops it (and counts it) when the queue is full. Never blocks. */
    public void offer(String line) {
        if (!lines.offer(line)) {
            dropped.increment();
        }
    }

    /** Lines dropped so far because the writer could not keep up. */
    public long dropped() {
        return dropped.sum();
    }

    /** Has the file opened again before the next line (log rotation). */
    public void reopen() {
        reopen = true;
    }

    private void run() {
        while (!closing || !lines.isEmpty()) {
            try {
                String line = lines.poll(200, TimeUnit.MILLISECONDS);
                if (reopen) {
                    reopen = false;
                    sink.reopen();
                }
                if (line == null) {
                    continue;
                }
                sink.write(line);
                for (String more; (more = lines.poll()) != null; ) {
                    sink.write(more);
                }
                sink.flush();
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "the access log cannot be written: " + e.getMessage());
            }
        }
    }

    /** Writes what is queued (for at most 2 s), then closes the sink. */
    @Override
    public void close() {
        closing = true;
        try {
            writer.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sink.close();
    }

    /** A console stream ({@code System.out}). */
    public static Sink console(PrintStream out) {
        return new Sink() {
            @Override
            public void write(String line) {
                out.println(line);
            }

            @Override
            public void flush() {
                out.flush();
            }
        };
    }

    /** A file, appended to; made if it is missing; opened again by name on {@link #reopen}. */
    public static Sink file(Path path) throws IOException {
        return new FileSink(path);
    }

    private static final class FileSink implements Sink {
        private final Path path;
        private BufferedWriter out;

        FileSink(Path path) throws IOException {
            this.path = path;
            this.out = open();
        }

        private BufferedWriter open() throws IOException {
            return Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }

        @Override
        public void write(String line) throws IOException {
            out.write(line);
            out.newLine();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void reopen() throws IOException {
            out.close();
            out = open();
        }

        @Override
        public void close() {
            try {
                out.close();
            } catch (IOException e) {
                // nothing more to write to
            }
        }
    }
}
