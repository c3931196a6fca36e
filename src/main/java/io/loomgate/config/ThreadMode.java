package io.loomgate.config;

import java.util.Locale;

/** How requests get threads: a new virtual thread each, or a fixed pool of platform threads. */
public enum ThreadMode {
    VIRTUAL,
    PLATFORM;

    /** {@code virtual} or {@code platform}, as in flags and JSON. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
