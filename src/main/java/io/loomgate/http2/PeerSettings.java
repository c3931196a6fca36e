package io.loomgate.http2;

/**
 * The settings one side of a connection has declared (RFC 9113 section 6.5.2), starting at the
 * protocol's defaults, changed by each SETTINGS frame it sends (values checked by
 * {@link FrameReader}). Unknown settings are ignored. Not thread-safe: its connection guards it.
 */
public final class PeerSettings {

    /** SETTINGS_MAX_CONCURRENT_STREAMS when none was sent: no limit. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private long headerTableSize = 4_096;
    private boolean enablePush = true;
    private long maxConcurrentStreams = UNLIMITED;
    private long initialWindowSize = 65_535;
    private int maxFrameSize = 16_384;
    private long maxHeaderListSize = UNLIMITED;

    /**
     * Applies one SETTINGS frame's values in order.
     *
     * @return the change of SETTINGS_INITIAL_WINDOW_SIZE it made, which every open stream's send
     *         window moves by (0 when it did not change)
     */
    public long apply(Frame.Settings settings) {
        long before = initialWindowSize;
        for (Frame.Setting s : settings.values()) {
            switch (s.id()) {
                case Frame.Setting.HEADER_TABLE_SIZE -> headerTableSize = s.value();
                case Frame.Setting.ENABLE_PUSH -> enablePush = s.value() == 1;
                case Frame.Setting.MAX_CONCURRENT_STREAMS -> maxConcurrentStreams = s.value();
                case Frame.Setting.INITIAL_WINDOW_SIZE -> initialWindowSize = s.value();
                case Frame.Setting.MAX_FRAME_SIZE -> maxFrameSize = (int) s.value();
                case Frame.Setting.MAX_HEADER_LIST_SIZE -> maxHeaderListSize = s.value();
                default -> {
                    // an unknown setting is ignored (RFC 9113 section 6.5.2)
                }
            }
        }
        return initialWindowSize - before;
    }

    public long headerTableSize() {
        return headerTableSize;
    }

    public boolean enablePush() {
        return enablePush;
    }

    public long maxConcurrentStreams() {
        return maxConcurrentStreams;
    }

    public long initialWindowSize() {
        return initialWindowSize;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    public long maxHeaderListSize() {
        return maxHeaderListSize;
    }
}
