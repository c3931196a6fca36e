package io.loomgate.testing;

import io.loomgate.Loomgate;
import io.loomgate.config.CommandLine;
import io.loomgate.config.UsageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Two gateways with the same flags, one on virtual threads and one on a platform pool of 16, for
 * tests that must give the same answers in both modes. Random {@code file-flaky} failures are off.
 */
public final class BothModes implements AutoCloseable {

    private final Loomgate virtual;
    private final Loomgate platform;

    private BothModes(Loomgate virtual, Loomgate platform) {
        this.virtual = virtual;
        this.platform = platform;
    }

    public static BothModes start(String... extraFlags) throws IOException, UsageException {
        Loomgate virtual = Loomgate.start(CommandLine.config(flags(extraFlags)));
        Loomgate platform = Loomgate.start(CommandLine.config(flags(extraFlags, "--threads", "platform", "--pool", "16")));
        return new BothModes(virtual, platform);
    }

    private static String[] flags(String[] extra, String... mode) {
        List<String> all = new ArrayList<>(List.of("--port", "0", "--failure-rate", "file-flaky=0"));
        all.addAll(List.of(extra));
        all.addAll(List.of(mode));
        return all.toArray(String[]::new);
    }

    /** The gateway of {@code mode}: {@code virtual} or {@code platform}. */
    public Loomgate gate(String mode) {
        return switch (mode) {
            case "virtual" -> virtual;
            case "platform" -> platform;
            default -> throw new IllegalArgumentException("mode must be virtual or platform: " + mode);
        };
    }

    @Override
    public void close() {
        virtual.close();
        platform.close();
    }
}
