package io.loomgate.config;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How many file descriptors this process may open (its soft {@code RLIMIT_NOFILE}, which the JVM
 * raises to the hard limit as it starts). On Linux it is read from {@code /proc/self/limits}: the
 * operating-system MXBean says the same, but its first use initialises the platform MBeans and the
 * container metrics, 20 to 40 ms of every start. Elsewhere, or when that file says nothing
 * readable, the MXBean is asked.
 */
public final class DescriptorLimit {

    private static final Path LIMITS = Path.of("/proc/self/limits");
    private static final String ROW = "Max open files";

    private DescriptorLimit() {
    }

    /** The limit ({@link Long#MAX_VALUE} when unlimited), or empty when neither source says. */
    public static OptionalLong ofThisProcess() {
        OptionalLong proc = fromProc();
        return proc.isPresent() ? proc : fromMxBean();
    }

    /** The soft limit in the text of a {@code /proc/PID/limits} file, when it has a readable one. */
    static OptionalLong parse(String limits) {
        for (String line : limits.split("\n")) {
            if (!line.startsWith(ROW)) {
                continue;
            }
            String[] columns = line.substring(ROW.length()).trim().split("\\s+");
            if (columns.length == 0) {
                return OptionalLong.empty();
            }
            if (columns[0].equals("unlimited")) {
                return OptionalLong.of(Long.MAX_VALUE);
            }
            try {
                return OptionalLong.of(Long.parseLong(columns[0]));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }

    static OptionalLong fromProc() {
        try {
            return Files.isReadable(LIMITS) ? parse(Files.readString(LIMITS, StandardCharsets.US_ASCII)) : OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    static OptionalLong fromMxBean() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            return OptionalLong.of(unix.getMaxFileDescriptorCount());
        }
        return OptionalLong.empty();
    }
}
