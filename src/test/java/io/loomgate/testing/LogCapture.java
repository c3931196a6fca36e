package io.loomgate.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what loomgate logs through {@code System.Logger} (backed by java.util.logging) under a
 * logger name, for tests that check log lines.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final boolean usedParentHandlers;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
        this.usedParentHandlers = logger.getUseParentHandlers();
        setLevel(Level.ALL);
        logger.addHandler(this);
        logger.setUseParentHandlers(false);  // captured, not also printed
    }

    /** Starts capturing {@code loggerName} and its children. */
    public static LogCapture of(String loggerName) {
        return new LogCapture(Logger.getLogger(loggerName));
    }

    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** Forgets what was captured so far. */
    public void clear() {
        records.clear();
    }

    /** Each record as {@code message} plus, if any, the thrown exception's class, message and stack. */
    public List<String> lines() {
        return records.stream().map(r -> {
            StringBuilder sb = new StringBuilder(r.getMessage());
            for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                sb.append('\n').append(t);
                for (StackTraceElement e : t.getStackTrace()) {
                    sb.append("\n\tat ").append(e);
                }
            }
            return sb.toString();
        }).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(usedParentHandlers);
    }
}
