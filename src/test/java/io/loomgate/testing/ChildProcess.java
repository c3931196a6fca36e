package io.loomgate.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real child process for tests (the jar, a script), with its stdout and stderr collected line by
 * line as they come. Closing it kills whatever is left, so no test leaves a process behind.
 */
public final class ChildProcess implements AutoCloseable {

    private final Process process;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private ChildProcess(Process process) {
        this.process = process;
        this.outReader = pump(process.getInputStream(), stdout);
        this.errReader = pump(process.getErrorStream(), stderr);
    }

    public static ChildProcess start(List<String> command, Map<String, String> env, Path directory) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(directory.toFile());
        pb.environment().putAll(env);
        try {
            return new ChildProcess(pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** {@code java --enable-preview} of the JDK running the tests, so children use the same JDK 25. */
    public static List<String> java(String... args) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "--enable-preview"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Waits for a stdout line that matches, and returns it; fails with what was printed otherwise. */
    public String awaitStdout(Predicate<String> matches, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : stdout) {
                if (matches.test(line)) {
                    return line;
                }
            }
            if (!process.isAlive() && !outReader.isAlive()) {
                errReader.join(5_000); // so the failure below shows what the process said before it died
                break;
            }
            Thread.sleep(20);
        }
        String how = process.isAlive() ? "within " + timeout : "before the process exited with " + process.exitValue();
        throw new AssertionError("no matching stdout line " + how + "; stdout=" + stdout + " stderr=" + stderr);
    }

    /** Waits for the exit and for both streams to be read to the end; returns the exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + timeout + "; stdout=" + stdout + " stderr=" + stderr);
        }
        outReader.join(5_000);
        errReader.join(5_000);
        return process.exitValue();
    }

    /**
     * Sends SIGTERM. Through the handle, because {@code Process.destroy()} also closes our ends of
     * the child's pipes, and whatever the child prints while shutting down would be lost.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public List<String> stdout() {
        return List.copyOf(stdout);
    }

    public List<String> stderr() {
        return List.copyOf(stderr);
    }

    /**
     * Kills the process, then the processes it had started. In that order: an nginx master whose
     * worker was killed first starts another, which outlived the test when the master went next
     * (an orphaned {@code nginx: worker process} was found after a run). The children are listed
     * before the parent dies, since afterwards they are no longer its descendants.
     */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private static Thread pump(InputStream in, List<String> sink) {
        return Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    sink.add(line);
                }
            } catch (IOException ignored) {
                // the process died; what was read is kept
            }
        });
    }
}
